export * from './load-config';
export * from './base.config';
export * from './mode';
export * from './int-setting';
export * from './service-url-setting';
export * from './kafka-security.settings';
