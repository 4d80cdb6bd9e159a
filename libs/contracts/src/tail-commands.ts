/** Request and reply bodies of tail-sync's commands as its handlers see them (gateway → tail-sync over gRPC, libs/contracts/proto). */
import type { TailPropertiesInput } from './tail-properties';

/**
 * A tail as submitted (docs/contract.md, Tails), after the gateway's validation: what tail-sync's
 * create-or-map decides on. The API calls the caller's Mapped ID `tailId`; past the gateway's
 * controller it is `mappedId`, as in the domain.
 */
export interface TailSubmission extends TailPropertiesInput {
  /** The caller's Mapped ID. */
  mappedId: string;
  tailNumber: string;
  /**
   * The W3C trace context of the request that submitted it, when one call carries several
   * requests' tails (the gateway sends one caller's concurrent PUTs together): its events keep it.
   */
  traceparent?: string;
}

export interface CreateOrMapRequest {
  tails: TailSubmission[];
}

/** Per submitted tail, in order: what happened, or why it failed. */
export type CreateOrMapOutcome =
  | { outcome: 'created' | 'mapped' | 'no-action'; tailId: number }
  | { outcome: 'invalid'; fieldErrors: Record<string, string[]> };

export interface CreateOrMapReply {
  outcomes: CreateOrMapOutcome[];
}

export interface TailByMappedIdRequest {
  mappedId: string;
}

export interface ChangeTailNumberRequest {
  mappedId: string;
  newTailNumber: string;
}

export const MAX_BULK_TAILS = 1000;

/** Operators' overview: how many tails each of these domains holds. */
export interface TailCountsRequest {
  domains: string[];
}

export interface TailCountsReply {
  /** Domain → tails (active and inactive); a domain without tails is 0. */
  counts: Record<string, number>;
}
