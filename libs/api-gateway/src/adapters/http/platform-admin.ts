import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthenticated, forbidden } from '@igw/kernel';
import type { PlatformAdminVerifier, RequestLike } from '@igw/http';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Org management is for the platform operator: PLATFORM_ADMIN_KEY, compared in constant time. */
export function assertPlatformAdmin(req: RequestLike, platformKey: string | undefined): void {
  const header = req.headers.authorization;
  const value = Array.isArray(header) ? header[0] : header;
  const given = value && /^Bearer\s+(\S+)\s*$/i.exec(value)?.[1];
  if (!given) throw unauthenticated('missing Authorization: Bearer <PLATFORM_ADMIN_KEY>');
  if (!platformKey) throw forbidden('insufficient_scope', 'org management is disabled: PLATFORM_ADMIN_KEY is not configured');
  if (!timingSafeEqual(digest(given), digest(platformKey))) throw unauthenticated('this operation needs the platform admin key');
}

/** The CallerGuard's check of @PlatformAdminOnly() routes, before the body is looked at. */
export class PlatformAdminKeyVerifier implements PlatformAdminVerifier {
  constructor(private readonly platformKey: string | undefined) {}

  verify(req: RequestLike): void {
    assertPlatformAdmin(req, this.platformKey);
  }
}
