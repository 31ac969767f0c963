export * from './domain';
export * from './decision-proxy.config';
export * from './decision-proxy.module';
export * from './application/verification/mandate-verifier.port';
export * from './application/verification/jwks-source.port';
export * from './application/verification/revocation-set';
export { DecideToolCallUseCase } from './application/use-cases/decide-tool-call.use-case';
export { JoseMandateVerifier } from './adapters/jose/jose-mandate.verifier';
export { HttpJwksSource } from './adapters/http/http-jwks.source';
