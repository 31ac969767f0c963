export * from './scope-glob';
