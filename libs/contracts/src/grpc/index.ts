export * from './proto-files';
export * from './problem-wire';
export type * as wire from './wire';
export * from './generate-types';
export * from './wire-shapes';
