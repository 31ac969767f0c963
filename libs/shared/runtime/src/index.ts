export * from './service-infra';
export * from './run-app';
export * from './version-board';
export * from './secret-file';
export * from './service-app';
export * from './key-encryption';
export * from './service-settings';
export * from './open-service';
