export * from './service-infra';
export * from './run-app';
