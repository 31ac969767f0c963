export * from './database';
export * from './migrate';
export * from './outbox';
export * from './unavailable';
export * from './dead-letters';
export * from './group-commit.writer';
export * from './prisma-client';
export * from './group-commit.store';
