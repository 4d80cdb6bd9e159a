/**
 * A new key pair for the gateway's signed callers, rolled out on a running compose stack the way
 * docs/operations.md ("Rotating the service key pair") says, under a steady load of `PUT /Tails`,
 * `GET /Tails/{id}` and a subscription read, with two copies of each service: the new public key
 * beside the old one in `service_verify_key`, the service copies restarted one at a time; the new
 * private key in `service_signing_key`, which the gateway reads again without a restart; the old
 * public key removed, which the services read again. No request fails at any step, and at the end
 * the services refuse a caller the old key signs.
 */
import './support/retry-closed-connections';
import { createPublicKey, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newServiceKeys, serviceKeyId } from '@tailsync/service-kit';
import { api, newServiceAccount } from '../../src/support/accounts';
import { eventually, sleep } from '../../src/support/eventually';
import { ComposeProject, dockerAsync, REPO_ROOT } from './support/compose-project';
import { pingAs, type Service, SERVICES, serviceNetworkCredentials } from './support/service-network-probes';

const release = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const stack = new ComposeProject({
  name: 'tailsync-key-rollout',
  // Ports of its own: the operators' stack may still be up (TAILSYNC_COMPOSE_KEEP=1).
  settings: { TAILSYNC_IMAGE_PREFIX: 'tailsync-compose-test', TAILSYNC_VERSION: release, GATEWAY_PORT: '23100', KAFKA_EXTERNAL_PORT: '29194', RECEIVER_PORT: '28180' },
});
process.env.E2E_BASE_URL = stack.gatewayUrl;
process.env.ADMIN_TOKEN = stack.secrets.admin_token;

const secretFile = (name: 'service_signing_key' | 'service_verify_key') => join(stack.settings.TAILSYNC_SECRETS_DIR, name);
const kidOf = (publicPem: string) => serviceKeyId(createPublicKey(publicPem));

/** What the load saw: every answer, under the step it was sent in. */
interface Outcome {
  step: string;
  request: string;
  status: number;
}

/** The containers of a scaled service, by id (a restart keeps them). */
async function copiesOf(service: Service): Promise<string[]> {
  const labels = [`com.docker.compose.project=${stack.name}`, `com.docker.compose.service=${service}`];
  return (await dockerAsync(['ps', '-q', ...labels.flatMap((label) => ['--filter', `label=${label}`])])).trim().split('\n').filter(Boolean);
}

async function healthOf(id: string): Promise<string> {
  return (await dockerAsync(['inspect', '--format', '{{.State.Health.Status}}', id])).trim();
}

/** A container's log lines about a key setting, as the apps write them (JSON, the kids in use). */
async function linesAbout(id: string, setting: string): Promise<{ msg: string; kid?: string; kids?: string[] }[]> {
  const out = await dockerAsync(['logs', id]);
  return out.split('\n').flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as { msg?: unknown };
      return typeof parsed.msg === 'string' && parsed.msg.startsWith(setting) ? [parsed as { msg: string }] : [];
    } catch {
      return [];
    }
  });
}

/** Waits until every copy of both services has logged, last, that it trusts exactly these kids. */
async function untilServicesTrust(kids: string[]): Promise<void> {
  for (const service of SERVICES) {
    for (const id of await copiesOf(service)) {
      const trusted = async () => ((await linesAbout(id, 'SERVICE_VERIFY_KEY')).filter((l) => !l.msg.includes('cannot be used')).at(-1)?.kids ?? []).sort();
      await eventually(async () => JSON.stringify(await trusted()) === JSON.stringify([...kids].sort()), 60_000, 1_000).catch(async () => {
        throw new Error(`${service} copy ${id} trusts ${(await trusted()).join(', ')}, not ${kids.join(', ')}`);
      });
    }
  }
}

beforeAll(() => {
  stack.run(['down', '--volumes', '--remove-orphans']); // a run killed before its clean-up
  stack.must(['build'], 1_200_000); // cached when another compose test built them
  stack.must(['up', '-d', '--wait', '--wait-timeout', '600', '--scale', 'tail-sync=2', '--scale', 'webhook-dispatcher=2'], 900_000);
}, 1_800_000);

afterAll(() => {
  if (process.env.TAILSYNC_COMPOSE_KEEP !== '1') stack.must(['down', '--volumes', '--remove-orphans']);
});

describe('a new caller key pair, rolled out copy by copy in compose', () => {
  it('fails no request while the services learn the new key, the gateway signs with it, and the old one goes', async () => {
    for (const service of SERVICES) expect({ service, copies: (await copiesOf(service)).length }).toEqual({ service, copies: 2 });
    const account = await newServiceAccount();
    const subscription = await api(account, 'POST', '/WebhookSubscriptions/', {
      eventNames: ['Product.RiskAssessmentExecuted'], url: 'http://receiver:8080/hooks', sharedSecret: randomBytes(32).toString('hex'),
    });
    expect(subscription.status).toBe(200);
    const gateway = stack.containerOf('gateway');
    const gatewayStarted = stack.inspect('gateway').State.StartedAt;

    const oldSigningKey = stack.secrets.service_signing_key;
    const oldKid = kidOf(stack.secrets.service_verify_key);
    const next = newServiceKeys();
    const newKid = kidOf(next.SERVICE_VERIFY_KEY);

    // The load: three clients, each writing a tail and reading it back, and reading its subscription.
    const outcomes: Outcome[] = [];
    let step = 'before';
    let loading = true;
    const client = async (n: number) => {
      for (let i = 0; loading; i++) {
        const tailId = `rollout-${n}-${i}`;
        const sentIn = step;
        const put = await api(account, 'PUT', '/Tails', { tailId, tailNumber: `K${n}${i}` }).catch(() => ({ status: 0 }));
        outcomes.push({ step: sentIn, request: 'PUT /Tails', status: put.status });
        const get = await api(account, 'GET', `/Tails/${tailId}`).catch(() => ({ status: 0 }));
        outcomes.push({ step: sentIn, request: 'GET /Tails/{id}', status: get.status });
        if (i % 5 === 0) {
          const sub = await api(account, 'GET', '/WebhookSubscriptions').catch(() => ({ status: 0 }));
          outcomes.push({ step: sentIn, request: 'GET /WebhookSubscriptions', status: sub.status });
        }
        await sleep(50);
      }
    };
    const load = Promise.all([0, 1, 2].map(client));
    await sleep(5_000);

    // 1. The new public key beside the old one (the file rewritten in place: compose mounts the
    // file itself), then each service copy restarted in turn, the next once it is healthy again.
    step = 'services trust both keys';
    writeFileSync(secretFile('service_verify_key'), `${stack.secrets.service_verify_key}\n${next.SERVICE_VERIFY_KEY}\n`);
    for (const service of SERVICES) {
      for (const id of await copiesOf(service)) {
        await dockerAsync(['restart', '--time', '40', id]);
        await eventually(async () => (await healthOf(id)) === 'healthy', 300_000, 1_000);
        await sleep(3_000); // the gateway connects to it again before the other copy goes
      }
    }
    await untilServicesTrust([oldKid, newKid]);

    // 2. The gateway's new private key: it reads the file again and signs with it, still running.
    step = 'gateway signs with the new key';
    writeFileSync(secretFile('service_signing_key'), `${next.SERVICE_SIGNING_KEY}\n`);
    await eventually(async () => (await linesAbout(gateway, 'SERVICE_SIGNING_KEY read again')).some((line) => line.kid === newKid), 60_000, 1_000);
    await sleep(5_000);

    // 3. The old public key removed: the services read the file again and trust the new key alone.
    step = 'old key removed';
    writeFileSync(secretFile('service_verify_key'), `${next.SERVICE_VERIFY_KEY}\n`);
    await untilServicesTrust([newKid]);
    await sleep(5_000);
    loading = false;
    await load;

    const steps = ['before', 'services trust both keys', 'gateway signs with the new key', 'old key removed'];
    const summary = steps.map((s) => ({ step: s, requests: outcomes.filter((o) => o.step === s).length }));
    console.log(`caller key rollout under load: ${JSON.stringify(summary)}`);
    for (const { step: s, requests } of summary) expect({ step: s, enough: requests >= 10 }).toEqual({ step: s, enough: true });
    const failed = outcomes.filter((o) => !(o.status === 200 || (o.request === 'PUT /Tails' && o.status === 201)));
    expect(failed).toEqual([]);
    // The gateway was never restarted.
    expect(stack.inspect('gateway').State.StartedAt).toBe(gatewayStarted);

    // Every copy now answers a caller the new key signs, and refuses one the old key signs.
    const credentials = await serviceNetworkCredentials(stack);
    for (const service of SERVICES) {
      for (const id of await copiesOf(service)) {
        const address = `${(await dockerAsync(['inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}', id])).trim().split(' ')[0]}:50051`;
        expect({
          service,
          newKey: await pingAs(service, address, credentials.gateway, next.SERVICE_SIGNING_KEY),
          oldKey: await pingAs(service, address, credentials.gateway, oldSigningKey),
        }).toEqual({ service, newKey: 'answered', oldKey: 'UNAUTHENTICATED' });
      }
    }
  });
});
