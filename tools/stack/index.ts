export * from './app-process';
export * from './infrastructure';
export * from './grpc-env';
export * from './env-file-value';
