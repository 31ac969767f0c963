import { timingSafeEqual, createHash } from 'node:crypto';
import { SCOPES, unauthenticated, type Caller, type Scope } from '@igw/kernel';
import type { CallerResolver, RequestLike } from './caller';

export const INTERNAL_HEADERS = {
  token: 'x-igw-internal-token',
  org: 'x-igw-org-id',
  key: 'x-igw-key-id',
  scope: 'x-igw-scope',
} as const;

const digest = (s: string) => createHash('sha256').update(s).digest();

/** A service behind the gateway: trusts the gateway's caller headers only with the shared token. */
export class InternalCallerResolver implements CallerResolver {
  private readonly expected: Buffer;
  constructor(token: string) {
    this.expected = digest(token);
  }

  async resolve(req: RequestLike): Promise<Caller> {
    const h = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const token = h(INTERNAL_HEADERS.token);
    if (!token || !timingSafeEqual(digest(token), this.expected)) throw unauthenticated('requests must come through the gateway');
    const orgId = h(INTERNAL_HEADERS.org);
    const keyId = h(INTERNAL_HEADERS.key);
    const scope = h(INTERNAL_HEADERS.scope) as Scope | undefined;
    if (!orgId || !keyId || !scope || !SCOPES.includes(scope)) throw unauthenticated('caller headers missing');
    return { orgId, keyId, scope };
  }
}
