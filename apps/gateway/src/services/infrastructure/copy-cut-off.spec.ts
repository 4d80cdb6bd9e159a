/**
 * A service copy cut off from the gateway by the network (its packets dropped by iptables on
 * loopback, as in a partition: no refusal, no reset) beside a copy that answers. Its connection
 * stays open to the channel, so only an answer that does not come tells the two apart. Needs root.
 */
import type { Server } from '@grpc/grpc-js';
import type { wire } from '@tailsync/contracts';
import { CallerTokenSigner } from '@tailsync/service-kit';
import { cutOff, freePort } from '@tailsync/service-kit/testing';
import { generateKeyPairSync } from 'node:crypto';
import { answersNoOutcomes, type CreateOrMapHandler, sleep, startCopy, writeSteadily } from '../../testing/tail-sync-copies';
import { ServiceChannel } from './service-channel';
import { TAIL_SYNC_SERVICE } from './tail-sync.client';

/** The request budget of the gateways under the fault suite's load (their RPC_TIMEOUT_MS). */
const BUDGET_MS = 5_000;

describe('ServiceChannel, one of two copies cut off by the network (real gRPC, iptables)', () => {
  const signer = new CallerTokenSigner(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());

  async function twoCopies(second: CreateOrMapHandler = answersNoOutcomes) {
    const ports = await Promise.all([freePort(), freePort()]);
    const copies: Server[] = await Promise.all([startCopy(ports[0]), startCopy(ports[1], second)]);
    const channel = new ServiceChannel<wire.TailSyncDefinition>({ ...TAIL_SYNC_SERVICE, target: `ipv4:127.0.0.1:${ports[0]},127.0.0.1:${ports[1]}` }, signer);
    const close = () => {
      channel.close();
      copies.forEach((c) => c.forceShutdown());
    };
    return { ports, channel, close };
  }

  it('refuses only the writes the cut copy held, within 2 s of the cut, and sends every later write to the other copy', async () => {
    const { ports, channel, close } = await twoCopies();
    const cutAt = 2_000;
    const healAt = cutAt + 7_000;
    try {
      const writes = writeSteadily(channel, healAt + 2_000, BUDGET_MS);
      await sleep(cutAt);
      // This process (the gateway's side) loses the second copy's port; the first stays reachable.
      const cut = cutOff(process.pid, `gateway-spec-${process.pid}`, [ports[1]]);
      try {
        await sleep(healAt - cutAt);
      } finally {
        await cut.heal();
      }
      const outcomes = await writes;
      expect(outcomes.filter((o) => o.at < cutAt && !o.ok)).toEqual([]);
      // The writes sent to the cut copy before the channel noticed fail (503), but soon: none
      // waits out its 5 s budget.
      const refused = outcomes.filter((o) => !o.ok);
      expect(refused.filter((o) => o.at + o.ms > cutAt + 2_500)).toEqual([]);
      // Every write from 2.5 s after the cut on is answered, and promptly, by the other copy.
      expect(outcomes.filter((o) => o.at >= cutAt + 2_500 && (!o.ok || o.ms > 1_000))).toEqual([]);
    } finally {
      close();
    }
  }, 40_000);

  it('keeps a copy that answers slowly but is reachable: no write to it is refused', async () => {
    // The second copy answers each write after 2 s (a copy under heavy load), well within the budget.
    const { channel, close } = await twoCopies((call, reply) => setTimeout(() => answersNoOutcomes(call, reply), 2_000));
    try {
      const outcomes = await writeSteadily(channel, 6_000, BUDGET_MS);
      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
      // Round robin kept sending writes to the slow copy: about half of them took its 2 s.
      expect(outcomes.filter((o) => o.ms >= 2_000).length).toBeGreaterThanOrEqual(outcomes.length / 3);
    } finally {
      close();
    }
  }, 40_000);
});
