// Original file: libs/contracts/proto/tailsync/v1/common.proto


/**
 * The operators' overview: the first minute of the window (ISO-8601, a whole minute); it runs to now.
 */
export interface ActivityRequest {
  'since'?: (string);
}

/**
 * The operators' overview: the first minute of the window (ISO-8601, a whole minute); it runs to now.
 */
export interface ActivityRequest__Output {
  'since': (string);
}
