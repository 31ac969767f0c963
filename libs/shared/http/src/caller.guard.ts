import { Inject, Injectable, Optional, UnsupportedMediaTypeException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { forbidden, scopeSatisfies, type Scope } from '@igw/kernel';
import {
  CALLER_RESOLVER,
  PLATFORM_ADMIN_VERIFIER,
  PUBLIC_ROUTE,
  REQUIRED_SCOPE,
  type CallerResolver,
  type PlatformAdminVerifier,
  type RequestLike,
} from './caller';

/** Global guard: every route needs a caller unless marked @Public() (or the platform admin key: @PlatformAdminOnly()), and the scope it names. */
@Injectable()
export class CallerGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(CALLER_RESOLVER) private readonly resolver: CallerResolver,
    @Optional() @Inject(PLATFORM_ADMIN_VERIFIER) private readonly platformAdmin?: PlatformAdminVerifier,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    const req = ctx.switchToHttp().getRequest<RequestLike>();
    const open = this.reflector.getAllAndOverride<true | 'platform-admin' | undefined>(PUBLIC_ROUTE, targets);
    if (open === 'platform-admin') {
      // Fails closed where nothing can check the platform admin key.
      if (!this.platformAdmin) throw forbidden('insufficient_scope', 'this operation needs the platform admin key, which this process does not check');
      this.platformAdmin.verify(req);
      return true;
    }
    if (open) return true;
    const caller = req.caller ?? (await this.resolver.resolve(req));
    req.caller = caller;
    const required = this.reflector.getAllAndOverride<Scope>(REQUIRED_SCOPE, targets) ?? 'read_only';
    if (!scopeSatisfies(caller.scope, required)) {
      throw forbidden('insufficient_scope', `this operation needs an API key with scope ${required === 'policy_write' ? 'policy_write or admin' : required}`);
    }
    return true;
  }
}

/**
 * A body that is not JSON, or JSON the edge rules refuse, was only flagged by the parser
 * (http-app): this guard refuses it. createHttpApp installs it after the app is created, so it
 * runs after the CallerGuard (an APP_GUARD, registered during creation): a wrong key gets its 401
 * whatever the body (authentication before content negotiation and before the body is judged),
 * and an app without a CallerGuard still refuses such bodies. A guard, not an interceptor: an
 * interceptor costs every request an observable chain.
 */
export class AcceptableBodyGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): true {
    const req = ctx.switchToHttp().getRequest<{ bodyRefusal?: unknown; unsupportedMediaType?: boolean }>();
    if (req.bodyRefusal !== undefined) throw req.bodyRefusal;
    if (req.unsupportedMediaType) throw new UnsupportedMediaTypeException('the request body must be JSON: send it with Content-Type: application/json');
    return true;
  }
}
