export * from './acr';
export * from './compiled-card';
export * from './decision';
export * from './decision-engine';
export * from './decision-record';
export * from './mcp-server';
export * from './mcp-enforcement';
export * from './decision-list-query';
