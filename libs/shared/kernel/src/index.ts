export * from './ids';
export * from './clock';
export * from './errors';
export * from './scopes';
export * from './version';
export * from './decision-kinds';
export * from './keyset-paging';
export * from './scope-glob';
