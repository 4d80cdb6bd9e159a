/**
 * The signed caller of a call from the gateway to a service (contract: "Requests between
 * services"): who calls for whom, and nothing that changes per request, so one signature serves
 * every call of that caller until it nearly expires. A compact JWS (EdDSA over Ed25519) whose
 * header names the signing key (`kid`, its RFC 7638 thumbprint).
 */

/** For whom the gateway calls: a service account, an operator (the admin API), or nobody (the public JWK Set, readiness). */
export const CALLER_ROLES = ['tenant', 'operator', 'public'] as const;
export type CallerRole = (typeof CALLER_ROLES)[number];

/** The signed part: the domain, the client id (mapping source) and the role. */
export interface CallerIdentity {
  domain: string;
  source: string;
  role: CallerRole;
}

/** The claims of a caller token besides `iss`, `aud`, `iat` and `exp`. */
export interface CallerClaims {
  dom: string;
  sub: string;
  role: CallerRole;
}

export const CALLER_ISSUER = 'tailsync-gateway';

/** The longest a signed caller may live. */
export const CALLER_TOKEN_MAX_LIFETIME_MS = 60_000;

/** How far the gateway's and a service's clocks may disagree. */
export const CALLER_CLOCK_TOLERANCE_MS = 5_000;

/** Why a call's caller was refused; the message names the reason, never the token. */
export class CallerRefused extends Error {}
