// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto


/**
 * A tail as submitted (docs/contract.md, Tails), after the gateway's validation.
 */
export interface TailSubmission {
  /**
   * The caller's Mapped ID (the API's `tailId`).
   */
  'mappedId'?: (string);
  'tailNumber'?: (string);
  'registrationNumber'?: (string);
  'icaoTypeName'?: (string);
  'vendorTypeName'?: (string);
  'countryCode'?: (string);
  'passengerSeating'?: (number);
  /**
   * The W3C trace context of the request that submitted this tail, set when one call carries
   * several requests' tails (the gateway sends one caller's concurrent PUTs together): its events
   * keep it. Absent, the call's `traceparent` metadata applies.
   */
  'traceparent'?: (string);
  '_registrationNumber'?: "registrationNumber";
  '_icaoTypeName'?: "icaoTypeName";
  '_vendorTypeName'?: "vendorTypeName";
  '_countryCode'?: "countryCode";
  '_passengerSeating'?: "passengerSeating";
  '_traceparent'?: "traceparent";
}

/**
 * A tail as submitted (docs/contract.md, Tails), after the gateway's validation.
 */
export interface TailSubmission__Output {
  /**
   * The caller's Mapped ID (the API's `tailId`).
   */
  'mappedId': (string);
  'tailNumber': (string);
  'registrationNumber'?: (string);
  'icaoTypeName'?: (string);
  'vendorTypeName'?: (string);
  'countryCode'?: (string);
  'passengerSeating'?: (number);
  /**
   * The W3C trace context of the request that submitted this tail, set when one call carries
   * several requests' tails (the gateway sends one caller's concurrent PUTs together): its events
   * keep it. Absent, the call's `traceparent` metadata applies.
   */
  'traceparent'?: (string);
  '_registrationNumber'?: "registrationNumber";
  '_icaoTypeName'?: "icaoTypeName";
  '_vendorTypeName'?: "vendorTypeName";
  '_countryCode'?: "countryCode";
  '_passengerSeating'?: "passengerSeating";
  '_traceparent'?: "traceparent";
}
