export * from './retry-schedule';
export * from './destination';
export * from './webhook';
export * from './delivery';
