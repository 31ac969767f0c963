export * from './error-mapping';
export * from './caller';
export * from './caller.guard';
export * from './internal-caller.resolver';
export * from './logger';
export * from './validation';
export * from './probes.controller';
export * from './http-app';
