/**
 * Test support for other projects' specs, e2e files and benches (`@tailsync/webhooks/testing`):
 * a real HTTP receiver that records callbacks, and the order callbacks reached it in. Not part of
 * the npm package (tsup.config.ts builds its own entries only).
 */
export { scripts, WebhookReceiver, type ReceivedRequest, type ReceiverAnswer, type ReceiverScript } from './testing/receiver';
export { arrivalOrder } from './testing/arrival-order';
