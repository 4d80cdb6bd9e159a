export * from './all-topics';
export * from './asyncapi-document';
export * from './published-schema-files';
