import { Catch, Module, type ArgumentsHost, type DynamicModule, type ExceptionFilter } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { CALLER_RESOLVER, type CallerResolver } from '../caller';
import { CallerGuard } from '../caller.guard';
import { toErrorResponse } from '../error-mapping';
import { createValidationPipe } from '../validation';
import { SCOPES, unauthenticated, type Scope } from '@igw/kernel';

/**
 * Stands in for the app's caller resolver: the test names org, key and scope in `x-test-*`
 * headers. Without `x-test-key` the key is `key_<org>`, unless the key is required.
 */
export function headerCallers(options: { requireKey?: boolean } = {}): CallerResolver {
  return {
    async resolve(req) {
      const org = req.headers['x-test-org'];
      const key = req.headers['x-test-key'];
      const scope = req.headers['x-test-scope'] as Scope | undefined;
      if (typeof org !== 'string' || !scope || !SCOPES.includes(scope)) throw unauthenticated();
      if (typeof key !== 'string' && options.requireKey) throw unauthenticated();
      return { orgId: org, keyId: typeof key === 'string' ? key : `key_${org}`, scope };
    },
  };
}

@Catch()
class ErrorModelFilter implements ExceptionFilter {
  catch(err: unknown, host: ArgumentsHost) {
    const res = toErrorResponse(err);
    void host.switchToHttp().getResponse<FastifyReply>().status(res.status).send(res.body);
  }
}

/**
 * For int-specs of service HTTP adapters (kept here, not in @igw/testing, whose helpers the shared
 * libs' own specs use — it would make a dependency cycle).
 *
 * A service module's routes behind the global caller guard, with the shared validation pipe and
 * error model, on a bare Fastify app for `app.inject` (the apps' own createHttpApp is exercised
 * by the e2e tests).
 */
export async function startServiceTestApp(service: DynamicModule, callers: CallerResolver = headerCallers()): Promise<NestFastifyApplication> {
  @Module({
    imports: [service],
    providers: [
      { provide: CALLER_RESOLVER, useValue: callers },
      { provide: APP_GUARD, useClass: CallerGuard },
    ],
  })
  class TestAppModule {}
  const app = await NestFactory.create<NestFastifyApplication>(TestAppModule, new FastifyAdapter(), { logger: false });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ErrorModelFilter());
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
