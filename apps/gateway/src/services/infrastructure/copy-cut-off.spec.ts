/**
 * A service copy cut off from the gateway by the network (its packets dropped by iptables on
 * loopback, as in a partition: no refusal, no reset) beside a copy that answers. Its connection
 * stays open to the channel, so only an answer that does not come tells the two apart; a copy
 * that is only slow, or whose event loop pauses now and then, must keep its calls. Needs root.
 */
import type { Server } from '@grpc/grpc-js';
import { PROTO_FILES, PROTO_ROOT, type wire } from '@tailsync/contracts';
import { CallerTokenSigner } from '@tailsync/service-kit';
import { cutOff, freePort } from '@tailsync/service-kit/testing';
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { once } from 'node:events';
import { answersNoOutcomes, type CreateOrMapHandler, sleep, startCopy, writeSteadily } from '../../testing/tail-sync-copies';
import { ServiceChannel } from './service-channel';
import { TAIL_SYNC_SERVICE } from './tail-sync.client';

/** A tail-sync copy (plain grpc-js, the contract's `.proto`) whose event loop is busy for PAUSE_MS every 2 s. */
const PAUSING_COPY = `
const grpc = require('@grpc/grpc-js');
const loader = require('@grpc/proto-loader');
const definition = loader.loadSync(process.env.PROTO, { keepCase: false, longs: Number, enums: String, defaults: true, oneofs: true, includeDirs: [process.env.PROTO_ROOT] });
const server = new grpc.Server();
server.addService(grpc.loadPackageDefinition(definition).tailsync.v1.TailSync.service, { CreateOrMap: (call, reply) => reply(null, { outcomes: { outcomes: [] } }) });
server.bindAsync('127.0.0.1:' + process.env.PORT, grpc.ServerCredentials.createInsecure(), (error) => {
  if (error) throw error;
  process.stdout.write('ready\\n');
  setInterval(() => { const until = Date.now() + Number(process.env.PAUSE_MS); while (Date.now() < until); }, 2000);
});
`;

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

  it('refuses only the writes the cut copy held, within 3 s of the cut, and sends every later write to the other copy', async () => {
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
      // The writes sent to the cut copy before the channel noticed (within 2 s; a loaded machine's
      // timers may be late) fail (503), but soon: none waits out its 5 s budget.
      const refused = outcomes.filter((o) => !o.ok);
      expect(refused.filter((o) => o.at + o.ms > cutAt + 3_000)).toEqual([]);
      // Every write from 3 s after the cut on is answered, and promptly, by the other copy.
      expect(outcomes.filter((o) => o.at >= cutAt + 3_000 && (!o.ok || o.ms > 1_000))).toEqual([]);
    } finally {
      close();
    }
  }, 40_000);

  it('keeps a copy whose event loop pauses for 1 s every 2 s (a copy under heavy load): no write to it is refused', async () => {
    // The copy in a process of its own, so that its pauses hold up its answers to the keep-alive
    // pings and not this process's timers.
    const [port, pausingPort] = await Promise.all([freePort(), freePort()]);
    const pausing = spawn(process.execPath, ['-e', PAUSING_COPY], {
      cwd: join(__dirname, '..', '..', '..', '..', '..'),
      env: { ...process.env, PORT: String(pausingPort), PROTO: join(PROTO_ROOT, PROTO_FILES.tailSync), PROTO_ROOT, PAUSE_MS: '1000' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const copy = await startCopy(port);
    const channel = new ServiceChannel<wire.TailSyncDefinition>({ ...TAIL_SYNC_SERVICE, target: `ipv4:127.0.0.1:${port},127.0.0.1:${pausingPort}` }, signer);
    try {
      await once(pausing.stdout!, 'data');
      const outcomes = await writeSteadily(channel, 8_000, BUDGET_MS);
      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
      // The pauses were real: some writes waited for them.
      expect(outcomes.filter((o) => o.ms >= 500).length).toBeGreaterThan(0);
    } finally {
      channel.close();
      copy.forceShutdown();
      pausing.kill('SIGKILL');
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
