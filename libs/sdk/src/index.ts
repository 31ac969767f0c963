export * from './client';
export * from './errors';
export * from './paging';
export * from './transport';
export * from './types';
export * from './verifier';
