import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';

/** The key source a fake JWT authenticator verifies with: a JWKS URL (fetched, no cooldown) or the keys themselves. */
export function fakeJwtKeys(fake: string, options: { jwksUrl?: string; jwks?: JSONWebKeySet }): JWTVerifyGetKey {
  if (options.jwks) return createLocalJWKSet(options.jwks);
  if (options.jwksUrl) return createRemoteJWKSet(new URL(options.jwksUrl), { cooldownDuration: 0 });
  throw new Error(`${fake} needs jwksUrl or jwks`);
}
