// The `conjur` credential broker (Conjur JWT Authenticator, authn-jwt).
export * from './conjur-authn-jwt.broker';
export { CONJUR_TOKEN_TTL_SECONDS, conjurTokenExpiry, normaliseConjurToken } from './conjur-access-token';
