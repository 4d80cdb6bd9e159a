// Original file: libs/contracts/proto/tailsync/v1/common.proto


/**
 * A service copy's answer to the gateway's readiness probe: its own dependencies, checked now.
 */
export interface PingReply {
  'service'?: (string);
  'instance'?: (string);
  'ready'?: (boolean);
  /**
   * Dependency name → "up" | "down".
   */
  'checks'?: ({[key: string]: string});
}

/**
 * A service copy's answer to the gateway's readiness probe: its own dependencies, checked now.
 */
export interface PingReply__Output {
  'service': (string);
  'instance': (string);
  'ready': (boolean);
  /**
   * Dependency name → "up" | "down".
   */
  'checks': ({[key: string]: string});
}
