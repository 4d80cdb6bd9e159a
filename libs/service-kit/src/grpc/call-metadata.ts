/** The gRPC metadata a call from the gateway carries: the signed caller, and beside it what correlates the call. */
export const CALL_METADATA = {
  /** The compact JWS naming the caller (caller-token.ts). */
  caller: 'tailsync-caller',
  /** The HTTP request's id: correlates log lines, grants nothing. */
  requestId: 'x-request-id',
  /** The W3C trace context of the HTTP request: correlates, grants nothing. */
  traceparent: 'traceparent',
} as const;
