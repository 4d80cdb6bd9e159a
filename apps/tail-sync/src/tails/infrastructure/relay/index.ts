export * from './tail-events.relay';
