export * from './rule-condition';
