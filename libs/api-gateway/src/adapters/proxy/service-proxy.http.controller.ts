import { All, Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVICE_ROUTES } from '@igw/contracts';
import { CurrentCaller, Public } from '@igw/http';
import { notFound, type Caller } from '@igw/kernel';
import type { ServiceProxy } from './service-proxy';

export const SERVICE_PROXIES = Symbol('SERVICE_PROXIES');
export type ServiceProxies = Map<string, ServiceProxy>;

const paths = SERVICE_ROUTES.flatMap((r) => r.prefixes.flatMap((p) => [p.slice(1), `${p.slice(1)}/*`]));
/** Exchanges streamed both ways rather than answered as one body (MCP Streamable HTTP). */
const streamPaths = SERVICE_ROUTES.flatMap((r) => ('streamPrefixes' in r ? r.streamPrefixes : []).map((p: string) => `${p.slice(1)}/:name`));
const publicPaths = SERVICE_ROUTES.flatMap((r) => ('publicPaths' in r ? r.publicPaths : []).map((p: string) => p.slice(1)));

/** Distributed mode: every route of a built service, admitted here, answered by the service. */
@ApiExcludeController()
@Controller()
export class ServiceProxyHttpController {
  constructor(@Inject(SERVICE_PROXIES) private readonly proxies: ServiceProxies) {}

  @All(paths)
  forward(@CurrentCaller() caller: Caller, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.send(caller, req, reply);
  }

  @All(streamPaths)
  async stream(@CurrentCaller() caller: Caller, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const proxy = this.proxyFor(req, (r) => ('streamPrefixes' in r ? r.streamPrefixes : []));
    await proxy.stream({ method: req.method, url: req.url, body: req.body, requestId: String(req.id), headers: req.headers }, caller, reply.raw, () =>
      reply.hijack(),
    );
  }

  /** Documents the spec serves without a key (the JWKS): forwarded without a caller. */
  @Public()
  @Get(publicPaths)
  forwardPublic(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.send(null, req, reply);
  }

  private async send(caller: Caller | null, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const proxy = this.proxyFor(req, (r) => r.prefixes);
    const res = await proxy.forward({ method: req.method, url: req.url, body: req.body, requestId: String(req.id), headers: req.headers }, caller);
    void reply.status(res.status).headers(res.headers).send(res.body);
  }

  /** The proxy of the service whose `prefixes` (a prefix, or a path below it) the request's path falls under. */
  private proxyFor(req: FastifyRequest, prefixes: (route: (typeof SERVICE_ROUTES)[number]) => readonly string[]): ServiceProxy {
    const path = req.url.split('?')[0] ?? req.url;
    const route = SERVICE_ROUTES.find((r) => prefixes(r).some((p) => path === p || path.startsWith(`${p}/`)));
    const proxy = route && this.proxies.get(route.service);
    if (!proxy) throw notFound('route');
    return proxy;
  }
}
