export * from './app-process';
export * from './infrastructure';
