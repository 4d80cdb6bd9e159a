import { parseArgs } from 'node:util';
import { stackEnv } from '../stack-env';
import { type DoorCredentials, EventDoor } from './event-door';
import { doorEnd } from './door-end';
import { followDoor, type Forwarded } from './door-follower';

const USAGE = `usage: npm run cli -- listen --forward http://localhost:4000/hook [options]

Follows GET /WebhookSubscriptions/Events (the polling door) and POSTs each event of your domain, in
order, to a local receiver exactly as its callback would arrive: the exact body, signed headers
(webhook-id, webhook-timestamp, webhook-signature, Authorization: Token <JWT>), so the receiver
verifies it with your subscription's secret or key. No public URL needed.

Signs in with TAILSYNC_CLIENT_ID and TAILSYNC_CLIENT_SECRET (a service account), or TAILSYNC_TOKEN.

options:
  --forward <url>     the local receiver (required)
  --base-url <url>    the gateway (default: BASE_URL, or http://localhost:3000)
  --after <iterator>  start after this iterator (printed when listen stops); default: the oldest event kept
  --from-now          forward only events that come after listen starts (the ones kept are passed over)
  --once              stop when the door has nothing more
  --interval <ms>     pause between polls once caught up (default 1000)`;

/** `npm run cli -- listen --forward <url>`: webhooks on a laptop, through the polling door. */
export async function listenCommand(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        forward: { type: 'string' }, 'base-url': { type: 'string' }, after: { type: 'string' }, 'from-now': { type: 'boolean' }, once: { type: 'boolean' },
        interval: { type: 'string' }, help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const env = stackEnv();
  const intervalMs = values.interval === undefined ? 1000 : Number(values.interval);
  const problems = [
    !values.forward && '--forward is required',
    values.forward && !isHttpUrl(values.forward) && '--forward must be an absolute http or https URL',
    (!Number.isInteger(intervalMs) || intervalMs < 100) && '--interval must be an integer of at least 100 (ms)',
    values.after !== undefined && values['from-now'] && '--after and --from-now are two different starts: give one',
    !credentialsOf(env) && 'set TAILSYNC_CLIENT_ID and TAILSYNC_CLIENT_SECRET (or TAILSYNC_TOKEN)',
  ].filter(Boolean);
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n\n${USAGE}\n`);
    return 2;
  }

  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const baseUrl = (values['base-url'] ?? env.BASE_URL).replace(/\/+$/, '');
  process.stderr.write(`forwarding the events of ${baseUrl}/WebhookSubscriptions/Events to ${values.forward} (Ctrl+C stops)\n`);
  const door = new EventDoor(baseUrl, credentialsOf(env)!);
  try {
    let after = values.after;
    if (values['from-now']) {
      const end = await doorEnd(door);
      after = end.iterator;
      process.stderr.write(`from now on: ${end.passed} events kept before it are passed over\n`);
    }
    const last = await followDoor({
      door,
      forwardTo: values.forward!,
      after,
      once: values.once,
      intervalMs,
      signal: stop.signal,
      onForwarded: (f) => console.log(describe(f)),
      onPause: (reason, ms) => process.stderr.write(`${reason}; again in ${ms / 1000} s\n`),
    });
    if (last !== undefined) process.stderr.write(`to go on from here: --after ${last}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function credentialsOf(env: Record<string, string>): DoorCredentials | undefined {
  if (env.TAILSYNC_TOKEN) return { token: env.TAILSYNC_TOKEN };
  if (env.TAILSYNC_CLIENT_ID && env.TAILSYNC_CLIENT_SECRET) return { clientId: env.TAILSYNC_CLIENT_ID, clientSecret: env.TAILSYNC_CLIENT_SECRET };
  return undefined;
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** One line per forwarded event: when, which, what the receiver answered. */
function describe(f: Forwarded): string {
  const answer = f.status === undefined ? f.error : String(f.status);
  const note = f.outcome === 'retry' ? ' (will retry)' : f.outcome === 'refused' ? ' (refused: not retried)' : '';
  return `${new Date().toISOString()} ${f.event.eventId} ${f.event.eventName} -> ${answer}${note}`;
}
