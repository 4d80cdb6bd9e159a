/**
 * A gRPC channel with the gateway's reconnection options (PROMPT_RECONNECTION) that tries to
 * connect while it is cut off from its server: packets dropped, as in a partition. Once the
 * network is back it must be connected within seconds, not when the kernel next resends the SYN
 * of the attempt it began during the cut: the kernel resends an unanswered SYN at growing
 * intervals, and without a time limit on the attempt grpc-js waits for them (measured here after
 * a 20 s cut: connected 15.7 s after the heal; after 14 and 30 s cuts, 5.5 and 5.7 s).
 */
import { Client, credentials, Server, ServerCredentials } from '@grpc/grpc-js';
import { PROMPT_RECONNECTION } from '@tailsync/service-kit';
import { freePort } from '@tailsync/service-kit/testing';
import { cutOff } from '@tailsync/tools/testing';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('connects within seconds of the heal, though its connection attempts were made during a 20 s cut', async () => {
  const port = await freePort();
  const server = new Server();
  await new Promise<void>((resolve, reject) => server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())));
  // This process loses the server's port before its channel first connects.
  const cut = cutOff(process.pid, `grpc-reconnect-${process.pid}`, [port]);
  const client = new Client(`ipv4:127.0.0.1:${port}`, credentials.createInsecure(), PROMPT_RECONNECTION);
  try {
    const ready = new Promise<number>((resolve, reject) => client.waitForReady(Date.now() + 60_000, (e) => (e ? reject(e) : resolve(Date.now()))));
    let healed: number;
    try {
      await sleep(20_000);
    } finally {
      await cut.heal();
      healed = Date.now();
    }
    // Attempts of 2 s, 1 to 2 s apart: the first after the heal sends its SYN within about 4 s.
    expect((await ready) - healed).toBeLessThan(5_000);
  } finally {
    client.close();
    server.forceShutdown();
  }
}, 60_000);
