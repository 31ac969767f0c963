import { Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ExecutionContext } from '@nestjs/common';
import { unauthenticated, type Caller } from '@igw/kernel';
import { AcceptableBodyGuard, CallerGuard } from './caller.guard';
import { PlatformAdminOnly, type CallerResolver, type PlatformAdminVerifier, type RequestLike } from './caller';

@Controller('t')
class OrgsLike {
  @PlatformAdminOnly()
  @Get()
  manage() {
    return 'managed';
  }
}

const contextFor = (req: RequestLike & Record<string, unknown>): ExecutionContext =>
  ({
    getHandler: () => OrgsLike.prototype.manage,
    getClass: () => OrgsLike,
    switchToHttp: () => ({ getRequest: () => req }),
  }) as unknown as ExecutionContext;

const resolver: CallerResolver = {
  resolve: async (): Promise<Caller> => {
    throw new Error('a platform-admin route must not resolve an org API key');
  },
};

describe('CallerGuard on @PlatformAdminOnly() routes', () => {
  it('refuses (403) where no platform admin verifier is provided: it never serves the route open', async () => {
    const guard = new CallerGuard(new Reflector(), resolver);
    await expect(guard.canActivate(contextFor({ headers: { authorization: 'Bearer anything' } }))).rejects.toMatchObject({
      kind: 'forbidden',
      code: 'insufficient_scope',
    });
  });

  it('lets the verifier decide, before the body is looked at', async () => {
    const verifier: PlatformAdminVerifier = {
      verify: (req) => {
        if (req.headers.authorization !== 'Bearer platform') throw unauthenticated('this operation needs the platform admin key');
      },
    };
    const guard = new CallerGuard(new Reflector(), resolver, verifier);
    const refusedBody = { headers: { authorization: 'Bearer wrong' }, bodyRefusal: new Error('not JSON') };
    await expect(guard.canActivate(contextFor(refusedBody))).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(guard.canActivate(contextFor({ headers: { authorization: 'Bearer platform' } }))).resolves.toBe(true);
    // The body is judged afterwards, by the next guard.
    expect(() => new AcceptableBodyGuard().canActivate(contextFor({ headers: {}, bodyRefusal: new Error('not JSON') }))).toThrow('not JSON');
  });
});
