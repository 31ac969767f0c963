import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVICE_ROUTES } from '@igw/contracts';
import { CurrentCaller } from '@igw/http';
import { notFound, type Caller } from '@igw/kernel';
import type { ServiceProxy } from './service-proxy';

export const SERVICE_PROXIES = Symbol('SERVICE_PROXIES');
export type ServiceProxies = Map<string, ServiceProxy>;

const paths = SERVICE_ROUTES.flatMap((r) => r.prefixes.flatMap((p) => [p.slice(1), `${p.slice(1)}/*`]));

/** Distributed mode: every route of a built service, admitted here, answered by the service. */
@ApiExcludeController()
@Controller()
export class ServiceProxyHttpController {
  constructor(@Inject(SERVICE_PROXIES) private readonly proxies: ServiceProxies) {}

  @All(paths)
  async forward(@CurrentCaller() caller: Caller, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const path = req.url.split('?')[0]!;
    const route = SERVICE_ROUTES.find((r) => r.prefixes.some((p) => path === p || path.startsWith(`${p}/`)));
    const proxy = route && this.proxies.get(route.service);
    if (!proxy) throw notFound('route');
    const res = await proxy.forward({ method: req.method, url: req.url, body: req.body, requestId: String(req.id) }, caller);
    void reply.status(res.status).headers(res.headers).send(res.body);
  }
}
