// The `vault` credential broker (Vault JWT/OIDC auth method login, token revoke-self).
export * from './vault-jwt.broker';
export { decodeVaultHandle, encodeVaultHandle, parseVaultLogin, vaultLoginPath, type VaultLogin, type VaultRevocationHandle } from './vault-api';
