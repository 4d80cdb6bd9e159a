export * from './catalog-files';
export * from './registry-passages';
