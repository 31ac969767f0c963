import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { unauthenticated, type Caller, type Scope } from '@igw/kernel';

export const CALLER_RESOLVER = Symbol('CALLER_RESOLVER');
export const REQUIRED_SCOPE = 'igw:required-scope';
export const PUBLIC_ROUTE = 'igw:public-route';

/** Minimal request view a resolver needs; Fastify's request satisfies it. */
export interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  ip?: string;
  caller?: Caller;
}

/**
 * Turns a request into a Caller or throws 401. The gateway resolves API keys; a service behind
 * the gateway trusts the caller headers the gateway signed with the internal token.
 */
export interface CallerResolver {
  resolve(req: RequestLike): Promise<Caller>;
}

/** The minimum scope a route needs (DESIGN 6.1). Routes without it need read_only. */
export const RequireScope = (scope: Scope) => SetMetadata(REQUIRED_SCOPE, scope);

/** No API key needed (probes, JWKS). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/**
 * No org API key: the platform admin key instead (org management), checked by the CallerGuard
 * through PLATFORM_ADMIN_VERIFIER before anything else about the request, as API keys are.
 */
export const PlatformAdminOnly = () => SetMetadata(PUBLIC_ROUTE, 'platform-admin');

export const PLATFORM_ADMIN_VERIFIER = Symbol('PLATFORM_ADMIN_VERIFIER');

/** Throws 401 (no or another key) or 403 (org management disabled) unless the request carries the platform admin key. */
export interface PlatformAdminVerifier {
  verify(req: RequestLike): void;
}

export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  const req = ctx.switchToHttp().getRequest<RequestLike>();
  if (!req.caller) throw unauthenticated();
  return req.caller;
});

/** A status-filtered list's query, raw as sent (the use case validates it). */
export interface StatusPageQuery {
  status?: string | string[];
  limit?: string | string[];
  cursor?: string | string[];
}

/** `status`, `limit` and `cursor` of the query string, as `@Query('status')` and the others would give them. */
export const PageQuery = createParamDecorator((_: unknown, ctx: ExecutionContext): StatusPageQuery => {
  const query = ctx.switchToHttp().getRequest<{ query?: StatusPageQuery }>().query ?? {};
  return { status: query.status, limit: query.limit, cursor: query.cursor };
});
