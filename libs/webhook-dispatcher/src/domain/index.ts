export * from './retry-schedule';
export * from './destination';
export * from './webhook';
export * from './delivery';
export * from './delivery-fairness';
export * from './webhook-gone';
