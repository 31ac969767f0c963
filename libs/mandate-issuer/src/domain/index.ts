// The mandate issuer's pure domain (DESIGN 6.8): scope check, TTL rules, the mandate record and
// its transitions and claims, and the signing-key rotation schedule.
export * from './mandate-scope';
export * from './mandate-ttl';
export * from './mandate';
export * from './signing-key-schedule';
