export * from './version';
export * from './topics';
export * from './message-patterns';
export * from './rpc';
export * from './ping';
