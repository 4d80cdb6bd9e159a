import { randomBytes, randomUUID } from 'node:crypto';
import { TOPICS } from '@tailsync/contracts';
import { builtTool, TOOL_BUILD_TIMEOUT_MS } from '@tailsync/tools/testing';
import { api, newServiceAccount } from './support/accounts';
import { logRecords, untilRecords } from './support/app-logs';
import { Jaeger, JAEGER_OTLP_HTTP, type JaegerTrace, servicesOf, spansOf } from './support/jaeger';
import { eventually } from './support/eventually';
import { readToEnd } from './support/kafka';
import { baseUrl, replaceSharedApps, startApp, stopSharedApp, waitForHttp } from './support/test-stack';
import { publish, subscribed } from './support/webhooks';
import type { AppProcess } from './support/test-stack';

const APPS = ['tail-sync', 'webhook-dispatcher', 'gateway'] as const;

/** A caller's W3C trace context: a new trace id and the caller's own span id, sampled. */
function callerTrace(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** The tail-events message of a tail, with its headers, once the relay has published it (after the 201). */
function tailEventOf(domain: string, mappedId: string) {
  return eventually(async () => (await readToEnd(TOPICS.tailEvents)).find((m) => m.key?.startsWith(`${domain}:`) && m.value?.toString().includes(`"${mappedId}"`)));
}

/**
 * One caller's concurrent PUTs, which the gateway sends to tail-sync together in shared calls:
 * each request's event goes out under that request's own trace, never another's.
 */
async function concurrentPutsKeepTheirTraces(prefix: string): Promise<void> {
  const a = await newServiceAccount();
  const callers = Array.from({ length: 16 }, () => callerTrace());
  const responses = await Promise.all(callers.map((c, i) => api(a, 'PUT', '/Tails', { tailId: `${prefix}-${i}`, tailNumber: `NC${i}` }, { traceparent: c.traceparent })));
  expect(responses.map((r) => r.status)).toEqual(callers.map(() => 201));
  const messages = await eventually(async () => {
    const own = (await readToEnd(TOPICS.tailEvents)).filter((m) => m.key?.startsWith(`${a.domain}:`));
    return own.length >= callers.length ? own : undefined;
  });
  const traceIdOf = (mappedId: string) => messages.find((m) => m.value?.toString().includes(`"${mappedId}"`))?.headers.traceparent?.split('-')[1];
  expect(callers.map((_, i) => traceIdOf(`${prefix}-${i}`))).toEqual(callers.map((c) => c.traceId));
}

describe('tracing off (the default)', () => {
  it("passes the caller's traceparent on unchanged: into the stored event and its message; the access log carries requestId and traceId", async () => {
    const a = await newServiceAccount();
    const caller = callerTrace();
    const requestId = `off-${randomUUID()}`;
    const res = await api(a, 'PUT', '/Tails', { tailId: 'untraced-1', tailNumber: 'NU001' }, { traceparent: caller.traceparent, 'X-Request-Id': requestId });
    expect(res.status).toBe(201);

    const message = await tailEventOf(a.domain, 'untraced-1');
    expect(message?.headers.traceparent).toBe(caller.traceparent);
    const [access] = await untilRecords('gateway', (l) => l.requestId === requestId && l.msg === 'request completed');
    expect(access).toMatchObject({ requestId, traceId: caller.traceId });
  });

  it("keeps each of one caller's concurrent PUTs under its own traceparent, though they share calls to tail-sync", async () => {
    await concurrentPutsKeepTheirTraces('off-many');
  });
});

describe('tracing on (OTLP to a real Jaeger)', () => {
  let jaeger: Jaeger;
  let traced: AppProcess[] = [];
  const instance = (name: string) => `${name}-traced`;

  beforeAll(async () => {
    jaeger = await Jaeger.start(await builtTool('jaeger'));
    // The e2e files run one at a time: the shared stack makes way for copies that trace.
    for (const name of APPS) await stopSharedApp(name);
    traced = APPS.map((name) =>
      startApp(name, instance(name), { OTEL_EXPORTER_OTLP_ENDPOINT: JAEGER_OTLP_HTTP, OTEL_BSP_SCHEDULE_DELAY: '100', LOG_LEVEL: 'debug' }),
    );
    await waitForHttp(`${baseUrl()}/health/ready`, 120_000, traced);
  }, 180_000 + TOOL_BUILD_TIMEOUT_MS);

  afterAll(async () => {
    // Jaeger is no app of the run (the teardown does not know it): it stops even if the stack cannot come back.
    try {
      await Promise.all(traced.map((app) => app.stop()));
      await replaceSharedApps(APPS);
    } finally {
      await jaeger?.stop();
    }
  }, 180_000);

  it('a PUT with a traceparent is one trace: the gateway, the gRPC call, tail-sync and the publication of its event', async () => {
    const a = await newServiceAccount();
    const caller = callerTrace();
    const requestId = `on-${randomUUID()}`;
    const res = await api(a, 'PUT', '/Tails', { tailId: 'traced-1', tailNumber: 'NT001' }, { traceparent: caller.traceparent, 'X-Request-Id': requestId });
    expect(res.status).toBe(201);

    const published = (t: JaegerTrace) => spansOf(t, 'tail-sync').some((s) => s.operationName === `send ${TOPICS.tailEvents}`);
    const trace = await jaeger.trace(caller.traceId, (t) => servicesOf(t).has('gateway') && published(t));
    expect(servicesOf(trace)).toEqual(new Set(['gateway', 'tail-sync']));
    // The gateway's server span is a child of the caller's span; tail-sync served the gRPC call in the same trace.
    expect(spansOf(trace, 'gateway').some((s) => s.references.some((r) => r.refType === 'CHILD_OF' && r.spanID === caller.spanId))).toBe(true);
    expect(spansOf(trace, 'gateway').some((s) => s.operationName.includes('TailSync/CreateOrMap'))).toBe(true);
    expect(spansOf(trace, 'tail-sync').some((s) => s.operationName.includes('TailSync/CreateOrMap'))).toBe(true);
    expect(spansOf(trace, 'tail-sync').some((s) => s.tags.some((t) => t.key === 'db.system.name' || t.key === 'db.system'))).toBe(true);

    // The event's message on tailsync.tail-events names the send span of this trace.
    const send = spansOf(trace, 'tail-sync').find((s) => s.operationName === `send ${TOPICS.tailEvents}`)!;
    const message = await tailEventOf(a.domain, 'traced-1');
    expect(message?.headers.traceparent).toBe(`00-${caller.traceId}-${send.spanID}-01`);

    // Every log line of the request, in both apps it crossed, carries its requestId and traceId
    // (read once each app's last line of it, the gateway's access line and tail-sync's `call served`, is written).
    const last = { gateway: 'request completed', 'tail-sync': 'call served' };
    for (const app of ['gateway', 'tail-sync'] as const) {
      await untilRecords(instance(app), (l) => l.requestId === requestId && l.msg === last[app]);
      const lines = logRecords(instance(app)).filter((l) => l.requestId === requestId);
      for (const line of lines) expect(line.traceId).toBe(caller.traceId);
    }
  });

  it("publishes each of one caller's concurrent PUTs' events in its own request's trace, though they share calls", async () => {
    await concurrentPutsKeepTheirTraces('on-many');
  });

  it("a risk-assessment event with a traceparent: each delivery attempt is a span of that trace, and the callback's traceparent names it", async () => {
    const { account, receiver } = await subscribed();
    const producer = callerTrace();
    const [event] = await publish(account.domain, 1, { score: 5 }, producer.traceparent);
    const [callback] = await receiver.waitFor(1, 30_000);
    const traceparent = String(callback.headers.traceparent);
    expect(traceparent).toMatch(new RegExp(`^00-${producer.traceId}-[\\da-f]{16}-01$`));
    const callbackSpanId = traceparent.split('-')[2];

    const trace = await jaeger.trace(producer.traceId, (t) => spansOf(t, 'webhook-dispatcher').some((s) => s.spanID === callbackSpanId));
    const dispatcher = spansOf(trace, 'webhook-dispatcher');
    const attempt = dispatcher.find((s) => s.operationName === 'deliver Product.RiskAssessmentExecuted');
    expect(attempt?.references).toEqual([expect.objectContaining({ refType: 'CHILD_OF', spanID: producer.spanId })]);
    // The callback's POST is the attempt's child: the span the receiver's traceparent names.
    const post = dispatcher.find((s) => s.spanID === callbackSpanId)!;
    expect(post.references).toEqual([expect.objectContaining({ refType: 'CHILD_OF', spanID: attempt!.spanID })]);
    expect(post.tags).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'http.response.status_code', value: 200 })]));

    // The attempt's log lines carry the event's id as requestId and the producer's trace id.
    const lines = await untilRecords(instance('webhook-dispatcher'), (l) => l.requestId === event.eventId);
    expect(lines.some((l) => l.msg === 'attempt made')).toBe(true);
    for (const line of lines) expect(line.traceId).toBe(producer.traceId);
  });
});
