export * from './failures';
export * from './contract-fixtures';
export * from './gated-fake-database';
export * from './wait-until';
export * from './cursor-pages';
export * from './recording-sealer';
