import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
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
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const req = ctx.switchToHttp().getRequest<RequestLike>();
    const caller = req.caller ?? (await this.resolver.resolve(req));
    req.caller = caller;
    const required = this.reflector.getAllAndOverride<Scope>(REQUIRED_SCOPE, targets) ?? 'read_only';
    if (!scopeSatisfies(caller.scope, required)) {
      throw forbidden('insufficient_scope', `this operation needs an API key with scope ${required === 'policy_write' ? 'policy_write or admin' : required}`);
    }
    return true;
  }
}
