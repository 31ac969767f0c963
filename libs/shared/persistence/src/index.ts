export * from './database';
export * from './migrate';
export * from './outbox';
export * from './unavailable';
