import { createServer, type Server, type Socket } from 'node:net';
import { metricsRegistry } from '@tailsync/service-kit';
import { ConsumerLag } from './consumer-lag';

/**
 * A broker cut off the network, as the fault suite's iptables cut makes one: connections open,
 * nothing ever comes back. (A real broker cannot be made to hang like this without root.)
 */
function silentBroker(): Promise<{ server: Server; address: string; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => void sockets.push(socket));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, address: `127.0.0.1:${(server.address() as { port: number }).port}`, sockets })));
}

describe("the dispatcher's consumer lag on /metrics", () => {
  it('leaves the series out when the broker does not answer, and the scrape answers in time (a copy that is up must not read as down)', async () => {
    const broker = await silentBroker();
    const lag = new ConsumerLag({ brokers: [broker.address] }, 'consumer-lag-spec', 'spec-group', ['spec-topic']);
    try {
      const t0 = Date.now();
      const scrape = await Promise.race([metricsRegistry.getSingleMetricAsString('kafka_consumer_group_lag'), new Promise<string>((r) => setTimeout(() => r('no answer in 5 s'), 5_000))]);
      expect(scrape).not.toBe('no answer in 5 s');
      expect(scrape).not.toMatch(/^kafka_consumer_group_lag\{/m);
      // Below a 2 s scrape interval's time-out (the fault suite's 1.5 s), with room for a loaded machine.
      expect(Date.now() - t0).toBeLessThan(1_500);
    } finally {
      broker.sockets.forEach((s) => s.destroy());
      broker.server.close();
      await lag.close().catch(() => undefined);
    }
  }, 15_000);
});
