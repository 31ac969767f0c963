export * from './infra/free-port';
export * from './infra/postgres-instance';
export * from './infra/kafka-instance';
export * from './e2e/app-process';
export * from './e2e/http-client';
export * from './e2e/system';
export * from './suites/public-api.suite';
export * from './suites/intent-evaluation.suite';
