import { type Server, status } from '@grpc/grpc-js';
import type { wire } from '@tailsync/contracts';
import { CallerTokenSigner } from '@tailsync/service-kit';
import { generateKeyPairSync } from 'node:crypto';
import { ServiceChannel } from './service-channel';
import { TAIL_SYNC_SERVICE } from './tail-sync.client';
import { freePort } from '@tailsync/service-kit/testing';
import { answersUnless, type CreateOrMapHandler, startCopy, writeSteadily } from '../../testing/tail-sync-copies';

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
      // Every write, when a later one failed: whether the copy that answers failed too before (then no copy is set aside, by design).
      if (later.some((o) => !o.ok || o.ms > 500)) console.log(`every write of the set-aside test: ${JSON.stringify(outcomes)}`);
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

  it('sets no copy aside while every copy fails, though one fails sooner: each keeps its share of the writes', async () => {
    // A dependency of every copy is down: the first copy says so at once, the second only after
    // 1.5 s. In the first seconds only the first copy's failures have come back; setting it aside
    // then would leave the second copy ready, so no "bring back" would undo it.
    const [fast, slow] = await Promise.all([freePort(), freePort()]);
    const unavailable = { code: status.UNAVAILABLE, details: 'a dependency is down' };
    const fastCalls: number[] = [];
    const started = Date.now();
    const copies = await Promise.all([
      startCopy(fast, (_call, reply) => {
        fastCalls.push(Date.now() - started);
        reply(unavailable);
      }),
      startCopy(slow, (_call, reply) => setTimeout(() => reply(unavailable), 1_500)),
    ]);
    const channel = new ServiceChannel<wire.TailSyncDefinition>({ ...TAIL_SYNC_SERVICE, target: `ipv4:127.0.0.1:${fast},127.0.0.1:${slow}` }, signer);
    try {
      const outcomes = await writeSteadily(channel, 4_000, 3_000);
      expect(outcomes.filter((o) => o.ok)).toEqual([]);
      // Round robin went on sending the first copy every other write (one each 200 ms): no pause
      // of a second, as a copy set aside would show.
      const gaps = fastCalls.slice(1).map((at, i) => at - fastCalls[i]);
      expect(Math.max(...gaps)).toBeLessThan(700);
      expect(fastCalls.length).toBeGreaterThanOrEqual(outcomes.length / 3);
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
