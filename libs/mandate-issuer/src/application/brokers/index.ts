export * from './credential-broker.port';
export * from './broker.error';
export * from './credential-broker-registry';
