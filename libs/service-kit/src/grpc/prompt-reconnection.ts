/**
 * grpc-js channel options for a client that must reach a service copy again soon after it
 * restarts or a partition heals (the gateway's channels).
 */
export const PROMPT_RECONNECTION = {
  // A restarted copy is connected again within 2 s (grpc-js backs off up to 120 s by default).
  'grpc.max_reconnect_backoff_ms': 2_000,
  // A connection attempt whose SYNs get no answer is given up after 2 s and made again (tailsync's
  // grpc-js patch `connect-timeout`): the kernel resends an unanswered SYN at growing intervals, so
  // an attempt begun during a partition found the healed copy up to 16 s late (a 20 s cut here).
  'grpc-node.tcp_connect_timeout_ms': 2_000,
  // A copy cut off by the network (or dead without closing its connections) is noticed within
  // 2 s, well inside a request's budget: its connection is dropped, so the calls it holds fail
  // UNAVAILABLE at once and round robin sends it none until it is connected again. Pings are
  // answered by the server's HTTP/2 layer, however slow its calls: a busy copy is not dropped.
  'grpc.keepalive_time_ms': 500,
  'grpc.keepalive_timeout_ms': 1_500,
  'grpc.keepalive_permit_without_calls': 1,
} as const;
