import { Inject, Injectable, UnsupportedMediaTypeException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { forbidden, scopeSatisfies, type Scope } from '@igw/kernel';
import { CALLER_RESOLVER, PUBLIC_ROUTE, REQUIRED_SCOPE, type CallerResolver, type RequestLike } from './caller';

/** Global guard: every route needs a caller unless marked @Public(), and the scope it names. */
@Injectable()
export class CallerGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(CALLER_RESOLVER) private readonly resolver: CallerResolver,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    const req = ctx.switchToHttp().getRequest<RequestLike>();
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return acceptableBody(req);
    const caller = req.caller ?? (await this.resolver.resolve(req));
    req.caller = caller;
    const required = this.reflector.getAllAndOverride<Scope>(REQUIRED_SCOPE, targets) ?? 'read_only';
    if (!scopeSatisfies(caller.scope, required)) {
      throw forbidden('insufficient_scope', `this operation needs an API key with scope ${required === 'policy_write' ? 'policy_write or admin' : required}`);
    }
    return acceptableBody(req);
  }
}

/**
 * A body that is not JSON was only flagged by the parser (http-app): it is refused here, once the
 * caller is known, so a wrong key gets its 401 whatever the body (authentication before content
 * negotiation). A guard, not an interceptor: an interceptor costs every request an observable chain.
 */
function acceptableBody(req: RequestLike): true {
  if ((req as { unsupportedMediaType?: boolean }).unsupportedMediaType)
    throw new UnsupportedMediaTypeException('the request body must be JSON: send it with Content-Type: application/json');
  return true;
}
