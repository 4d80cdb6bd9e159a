import { loadPackageDefinition, Server, ServerCredentials, type ServiceDefinition } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { PROTO_FILES, PROTO_LOADER_OPTIONS, PROTO_ROOT, type wire } from '@tailsync/contracts';
import { CallerTokenSigner } from '@tailsync/service-kit';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { ServiceChannel } from './service-channel';
import { TAIL_SYNC_SERVICE } from './tail-sync.client';
import { freePort } from '@tailsync/service-kit/testing';

type CreateOrMapHandler = (call: unknown, reply: (e: null, r: object) => void) => void;
const answersNoOutcomes: CreateOrMapHandler = (_call, reply) => reply(null, { outcomes: { outcomes: [] } });

/**
 * A tail-sync copy (real gRPC server, the contract's `.proto`) whose CreateOrMap answers no
 * outcomes, or never answers (`() => undefined`), as one cut off from its database does until the deadline.
 */
async function startCopy(port: number, CreateOrMap: CreateOrMapHandler = answersNoOutcomes): Promise<Server> {
  const definition = loadSync(join(PROTO_ROOT, PROTO_FILES.tailSync), { ...PROTO_LOADER_OPTIONS, includeDirs: [PROTO_ROOT] });
  const service = (loadPackageDefinition(definition) as any).tailsync.v1.TailSync.service as ServiceDefinition;
  const server = new Server();
  server.addService(service, { CreateOrMap });
  await new Promise<void>((resolve, reject) => server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())));
  return server;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A handler that never answers while `silent()` says so, as a copy cut off does, and answers (and tells `onAnswer`) once it does not. */
const answersUnless = (silent: () => boolean, onAnswer: () => void = () => undefined): CreateOrMapHandler => (call, reply) => {
  if (silent()) return;
  onAnswer();
  answersNoOutcomes(call, reply);
};

/** A write every 100 ms for `forMs`, each with a 1 s budget, as a gateway's requests come: when each started (ms from the first) and whether it was answered. */
async function writeSteadily(channel: ServiceChannel<wire.TailSyncDefinition>, forMs: number): Promise<{ at: number; ok: boolean; ms: number }[]> {
  const started = Date.now();
  const calls: Promise<{ at: number; ok: boolean; ms: number }>[] = [];
  for (let i = 0; Date.now() - started < forMs; i++) {
    const at = Date.now() - started;
    const caller = { domain: 'example.org', source: 'client', role: 'tenant' as const, requestId: `r-${i}`, deadline: Date.now() + 1_000 };
    calls.push(channel.call('CreateOrMap', caller, { tails: [] }).then(() => true, () => false).then((ok) => ({ at, ok, ms: Date.now() - started - at })));
    await sleep(100);
  }
  return Promise.all(calls);
}

describe('ServiceChannel (real gRPC)', () => {
  const signer = new CallerTokenSigner(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());

  it('a write made while no copy is up waits for one within its deadline, instead of failing at once (503)', async () => {
    const port = await freePort();
    const channel = new ServiceChannel<wire.TailSyncDefinition>({ ...TAIL_SYNC_SERVICE, target: `ipv4:127.0.0.1:${port}` }, signer);
    let copy: Server | undefined;
    try {
      const started = Date.now();
      // The only copy is down (a restart): the channel's connection attempt is refused first.
      const answered = channel.call('CreateOrMap', { domain: 'example.org', source: 'client', role: 'tenant', requestId: 'r-1', deadline: Date.now() + 8_000 }, { tails: [] });
      await new Promise((r) => setTimeout(r, 1_000));
      copy = await startCopy(port);
      await expect(answered).resolves.toMatchObject({ outcomes: { outcomes: [] } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    } finally {
      channel.close();
      copy?.forceShutdown();
    }
  });

  it('sets aside a copy that does not answer: after its first calls fail, every write goes to the copy that answers, at once', async () => {
    const [good, silent] = await Promise.all([freePort(), freePort()]);
    const copies = await Promise.all([startCopy(good), startCopy(silent, () => undefined)]);
    const channel = new ServiceChannel<wire.TailSyncDefinition>({ ...TAIL_SYNC_SERVICE, target: `ipv4:127.0.0.1:${good},127.0.0.1:${silent}` }, signer);
    try {
      const outcomes = await writeSteadily(channel, 6_000);
      // The silent copy's first calls wait out their budget; once they have (and a check has run), none is sent there.
      const later = outcomes.filter((o) => o.at >= 3_000);
      expect(later.filter((o) => !o.ok || o.ms > 500)).toEqual([]);
      expect(outcomes.filter((o) => !o.ok).length).toBeGreaterThan(0);
    } finally {
      channel.close();
      copies.forEach((c) => c.forceShutdown());
    }
  });

  it('sets no copy aside while every copy fails alike (the gateway\'s own trouble): once healed, both copies take writes at once', async () => {
    const [first, second] = await Promise.all([freePort(), freePort()]);
    let cutOff = true;
    const served = [0, 0];
    const copyAnswering = (index: number): CreateOrMapHandler => answersUnless(() => cutOff, () => (served[index] += 1));
    const copies = await Promise.all([startCopy(first, copyAnswering(0)), startCopy(second, copyAnswering(1))]);
    const channel = new ServiceChannel<wire.TailSyncDefinition>({ ...TAIL_SYNC_SERVICE, target: `ipv4:127.0.0.1:${first},127.0.0.1:${second}` }, signer);
    try {
      // Both copies silent for 3 s: every write fails, alike on both.
      const during = await writeSteadily(channel, 3_000);
      expect(during.filter((o) => o.ok)).toEqual([]);
      cutOff = false;
      const after = await writeSteadily(channel, 3_000);
      expect(after.filter((o) => !o.ok || o.ms > 500)).toEqual([]);
      // Round robin over both, none set aside: each copy answered about half of the writes.
      expect(Math.min(...served)).toBeGreaterThanOrEqual(after.length / 3);
    } finally {
      channel.close();
      copies.forEach((c) => c.forceShutdown());
    }
  });

  it('brings a copy set aside back at once when no other copy is left to take the writes', async () => {
    const [flaky, good] = await Promise.all([freePort(), freePort()]);
    let cutOff = true;
    const copies = await Promise.all([startCopy(flaky, answersUnless(() => cutOff)), startCopy(good)]);
    const channel = new ServiceChannel<wire.TailSyncDefinition>({ ...TAIL_SYNC_SERVICE, target: `ipv4:127.0.0.1:${flaky},127.0.0.1:${good}` }, signer);
    try {
      // The first copy fails alone for 3 s: it is set aside (10 s), the writes go to the other.
      const during = await writeSteadily(channel, 3_000);
      expect(during.filter((o) => o.at >= 2_000 && !o.ok)).toEqual([]);
      // The first copy answers again and the other is lost: the set-aside copy must take the writes now, not after its 10 s.
      cutOff = false;
      copies[1].forceShutdown();
      const after = await writeSteadily(channel, 4_000);
      expect(after.filter((o) => o.at >= 1_000 && (!o.ok || o.ms > 500))).toEqual([]);
    } finally {
      channel.close();
      copies.forEach((c) => c.forceShutdown());
    }
  });
});
