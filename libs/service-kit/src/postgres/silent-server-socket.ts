import { Socket } from 'node:net';
import { setKeepAliveInterval, setKeepAliveProbes, setUserTimeout } from 'net-keepalive';

/**
 * How a client gives up on a server that went silent (a partition, a frozen host), as the
 * server's own SILENT_SESSION_SETTINGS do for a silent client. Without it a connection whose
 * query was dropped hangs on TCP's retransmission back-off (Linux: about 15 minutes; a 30 s cut
 * heals into a 20 s wait for the next retransmission), holding its pool slot: the copy went on
 * refusing calls after its network was back. With it the connection fails when what it sent is
 * unacknowledged for 10 s, or when an idle one misses its keep-alive probes (5 s, then 3 × 2 s),
 * and the pool opens a new one. docs/operations.md, "Settings that matter".
 */
export const SILENT_SERVER = { userTimeoutMs: 10_000, keepAliveIdleMs: 5_000, keepAliveIntervalMs: 2_000, keepAliveProbes: 3 } as const;

/** A pg connection's socket (pg's `stream` option) with {@link SILENT_SERVER}'s limits set once it connects. */
export function silentServerSocket(): Socket {
  const socket = new Socket();
  socket.once('connect', () => {
    // A Unix-domain socket has no TCP time-outs to set (nor a network to lose).
    if (socket.remoteFamily === undefined) return;
    socket.setKeepAlive(true, SILENT_SERVER.keepAliveIdleMs);
    setKeepAliveInterval(socket, SILENT_SERVER.keepAliveIntervalMs);
    setKeepAliveProbes(socket, SILENT_SERVER.keepAliveProbes);
    setUserTimeout(socket, SILENT_SERVER.userTimeoutMs);
  });
  return socket;
}
