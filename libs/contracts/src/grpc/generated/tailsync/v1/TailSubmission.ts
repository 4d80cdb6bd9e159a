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
  '_registrationNumber'?: "registrationNumber";
  '_icaoTypeName'?: "icaoTypeName";
  '_vendorTypeName'?: "vendorTypeName";
  '_countryCode'?: "countryCode";
  '_passengerSeating'?: "passengerSeating";
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
  '_registrationNumber'?: "registrationNumber";
  '_icaoTypeName'?: "icaoTypeName";
  '_vendorTypeName'?: "vendorTypeName";
  '_countryCode'?: "countryCode";
  '_passengerSeating'?: "passengerSeating";
}
