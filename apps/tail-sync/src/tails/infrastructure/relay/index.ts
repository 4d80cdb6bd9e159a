export * from './tail-events.relay';
export { tailEventOwnFields } from './tail-messages.fold';
