// Original file: libs/contracts/proto/tailsync/v1/tail_sync.proto

import type { TailMapping as _tailsync_v1_TailMapping, TailMapping__Output as _tailsync_v1_TailMapping__Output } from '../../tailsync/v1/TailMapping';
import type { Long } from '@grpc/proto-loader';

/**
 * The tail view (docs/contract.md, "Tails"); absent optional fields are JSON null.
 */
export interface TailView {
  'tailId'?: (number | string | Long);
  'mappedId'?: (string);
  'tailNumber'?: (string);
  'registrationNumber'?: (string);
  'icaoTypeName'?: (string);
  'vendorTypeName'?: (string);
  'countryCode'?: (string);
  'passengerSeating'?: (number);
  /**
   * "active" | "inactive".
   */
  'status'?: (string);
  'mappings'?: (_tailsync_v1_TailMapping)[];
  'createdAt'?: (string);
  'updatedAt'?: (string);
  'version'?: (number | string | Long);
  '_mappedId'?: "mappedId";
  '_registrationNumber'?: "registrationNumber";
  '_icaoTypeName'?: "icaoTypeName";
  '_vendorTypeName'?: "vendorTypeName";
  '_countryCode'?: "countryCode";
  '_passengerSeating'?: "passengerSeating";
}

/**
 * The tail view (docs/contract.md, "Tails"); absent optional fields are JSON null.
 */
export interface TailView__Output {
  'tailId': (number);
  'mappedId'?: (string);
  'tailNumber': (string);
  'registrationNumber'?: (string);
  'icaoTypeName'?: (string);
  'vendorTypeName'?: (string);
  'countryCode'?: (string);
  'passengerSeating'?: (number);
  /**
   * "active" | "inactive".
   */
  'status': (string);
  'mappings': (_tailsync_v1_TailMapping__Output)[];
  'createdAt': (string);
  'updatedAt': (string);
  'version': (number);
  '_mappedId'?: "mappedId";
  '_registrationNumber'?: "registrationNumber";
  '_icaoTypeName'?: "icaoTypeName";
  '_vendorTypeName'?: "vendorTypeName";
  '_countryCode'?: "countryCode";
  '_passengerSeating'?: "passengerSeating";
}
