export * from './version';
export * from './topics';
export * from './message-patterns';
export * from './rpc';
export * from './ping';
export * from './tail-commands';
export * from './webhooks';
export * from './tails';
