export * from './schema-under-test';
