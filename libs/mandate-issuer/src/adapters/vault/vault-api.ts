/**
 * Shapes of Vault's HTTP API that the broker reads and the revocation handle it writes.
 *
 * Login (`POST /v1/auth/:mount/login`, JWT/OIDC auth method) answers
 * `{auth: {client_token, accessor, policies, metadata, lease_duration, renewable, token_type, ...}}`.
 */
export interface VaultLogin {
  clientToken: string;
  /** '' for batch tokens (they have none). */
  accessor: string;
  leaseDuration: number;
  tokenType: 'service' | 'batch';
}

/** The `auth` block of a login answer, or null when it lacks a token or a valid lease. */
export function parseVaultLogin(body: unknown): VaultLogin | null {
  const auth = (body as { auth?: unknown } | null | undefined)?.auth as Record<string, unknown> | null | undefined;
  if (!auth || typeof auth !== 'object') return null;
  const { client_token, accessor, lease_duration, token_type } = auth;
  if (typeof client_token !== 'string' || client_token.length === 0) return null;
  if (typeof lease_duration !== 'number' || !Number.isInteger(lease_duration) || lease_duration < 0) return null;
  const acc = typeof accessor === 'string' ? accessor : '';
  // Vault reports token_type since 1.0; batch tokens carry no accessor and an `hvb.`/`b.` prefix.
  const batch = token_type === 'batch' || (token_type === undefined && /^(hvb|b)\./.test(client_token));
  return { clientToken: client_token, accessor: acc, leaseDuration: lease_duration, tokenType: batch ? 'batch' : 'service' };
}

/** What revoke needs: the token (revoke-self authenticates with it) and its namespace. */
export interface VaultRevocationHandle {
  token: string;
  accessor: string;
  namespace: string | null;
}

const HANDLE_PREFIX = 'vault.v1:';

/** Serialises a handle. The result is SECRET (it holds the token). */
export function encodeVaultHandle(handle: VaultRevocationHandle): string {
  return HANDLE_PREFIX + JSON.stringify({ t: handle.token, a: handle.accessor, ns: handle.namespace });
}

/** The handle, or null when `value` is not one written by encodeVaultHandle. */
export function decodeVaultHandle(value: string): VaultRevocationHandle | null {
  if (!value.startsWith(HANDLE_PREFIX)) return null;
  try {
    const parsed = JSON.parse(value.slice(HANDLE_PREFIX.length)) as { t?: unknown; a?: unknown; ns?: unknown };
    if (typeof parsed.t !== 'string' || parsed.t.length === 0) return null;
    if (typeof parsed.a !== 'string') return null;
    if (parsed.ns !== null && typeof parsed.ns !== 'string') return null;
    return { token: parsed.t, accessor: parsed.a, namespace: parsed.ns };
  } catch {
    return null;
  }
}

/** `jwt` or `team/jwt` → `/auth/jwt/login`, `/auth/team/jwt/login` (each segment encoded). */
export function vaultLoginPath(mount: string): string {
  const segments = mount.split('/').filter(Boolean).map(encodeURIComponent);
  return `/auth/${segments.join('/')}/login`;
}
