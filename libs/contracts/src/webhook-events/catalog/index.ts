export * from './catalog-files';
