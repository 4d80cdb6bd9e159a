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
  // A copy that dies without closing its connections is noticed within seconds.
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.keepalive_permit_without_calls': 1,
} as const;
