import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthenticated, forbidden } from '@igw/kernel';
import type { PlatformAdminVerifier, RequestLike } from '@igw/http';
import { bearerOf } from './bearer';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The CallerGuard's check of @PlatformAdminOnly() routes, before the body is looked at: org
 * management is for the platform operator, PLATFORM_ADMIN_KEY compared in constant time.
 */
export class PlatformAdminKeyVerifier implements PlatformAdminVerifier {
  constructor(private readonly platformKey: string | undefined) {}

  verify(req: RequestLike): void {
    const given = bearerOf(req).token;
    if (!given) throw unauthenticated('missing Authorization: Bearer <PLATFORM_ADMIN_KEY>');
    if (!this.platformKey) throw forbidden('insufficient_scope', 'org management is disabled: PLATFORM_ADMIN_KEY is not configured');
    if (!timingSafeEqual(digest(given), digest(this.platformKey))) throw unauthenticated('this operation needs the platform admin key');
  }
}
