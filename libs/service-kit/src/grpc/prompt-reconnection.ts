/**
 * grpc-js channel options for a client that must reach a service copy again soon after it
 * restarts or a partition heals (the gateway's channels).
 */
export const PROMPT_RECONNECTION = {
  // A restarted copy is connected again within 2 s (grpc-js backs off up to 120 s by default).
  'grpc.max_reconnect_backoff_ms': 2_000,
  // A connection attempt whose SYNs get no answer is given up after 2 s and made again (tailsync's
  // grpc-js patch `connect-timeout`): the kernel would resend a SYN only 1, 3, 7, 15, 31 s after
  // the first, so an attempt begun during a partition would find the healed copy up to 16 s late.
  'grpc-node.tcp_connect_timeout_ms': 2_000,
  // A copy that dies without closing its connections is noticed within seconds.
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.keepalive_permit_without_calls': 1,
} as const;
