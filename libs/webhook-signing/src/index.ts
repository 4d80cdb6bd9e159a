// The receiver's side of tailsync webhooks: verify a callback (the JWT of the interface, or the
// Standard Webhooks signature), and sign() one to test a handler. Framework helpers:
// `@tailsync/webhooks/express`, `/fastify`, `/nest`.
export * from './claims';
export * from './verify';
export * from './standard-webhooks';
export * from './secret-id';
export * from './public-keys';
export * from './remote-key-set';
export * from './test-calls';
export type { HeaderSource } from './headers';
export * from './sign';
// The event catalog (generated from the registry): types only, so both builds stay free of it.
export type * from './events';
