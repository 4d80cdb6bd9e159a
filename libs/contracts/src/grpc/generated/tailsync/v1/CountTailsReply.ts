// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { Long } from '@grpc/proto-loader';

export interface CountTailsReply {
  /**
   * Domain → tails (active and inactive); a domain without tails is 0.
   */
  'counts'?: ({[key: string]: number | string | Long});
}

export interface CountTailsReply__Output {
  /**
   * Domain → tails (active and inactive); a domain without tails is 0.
   */
  'counts': ({[key: string]: number});
}
