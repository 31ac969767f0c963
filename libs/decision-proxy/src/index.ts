// The decision proxy (issue 5) is being built: the decision engine (domain) and mandate verification
// exist and are tested; the module, routes and app are not wired yet.
export * from './domain';
export * from './application/verification/mandate-verifier.port';
export * from './application/verification/jwks-source.port';
export * from './application/verification/revocation-set';
export { JoseMandateVerifier } from './adapters/jose/jose-mandate.verifier';
export { HttpJwksSource } from './adapters/http/http-jwks.source';
