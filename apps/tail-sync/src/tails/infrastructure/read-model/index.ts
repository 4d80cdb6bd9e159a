export * from './read-model.tables';
export * from './tails.projection';
export * from './tails.read-model';
export * from './coalesced-tail-views';
