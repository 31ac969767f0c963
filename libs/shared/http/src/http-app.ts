import { Catch, MethodNotAllowedException, NotFoundException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import type { Logger } from 'pino';
import { newId, unavailable, type Caller } from '@igw/kernel';
import { readBodyThenParse } from './body-reader';
import { AcceptableBodyGuard } from './caller.guard';
import { answerClientError } from './client-error';
import { parseJsonBody, urlInputError } from './edge-input';
import { toErrorResponse } from './error-mapping';
import { PinoNestLogger } from './logger';
import { setupOpenApi, type OpenApiOptions } from './openapi-document';
import { processMetrics } from './metrics/prom-metrics';
import { installTracingHooks, requestContext, tracingEnabled } from './tracing';
import { createValidationPipe } from './validation';
import { DRAINING_HEADER } from './internal-client/upstream-pool';
import { watchStalls } from './stall-watch';
import { context } from '@opentelemetry/api';

export const BODY_LIMIT = 256 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function sendError(err: unknown, reply: FastifyReply, logger: Logger, reqId?: string): void {
  const res = toErrorResponse(err);
  if (res.unexpected) logger.error({ req_id: reqId, err }, 'unexpected error');
  else if (res.status >= 500) logger.warn({ req_id: reqId, code: res.body.code, err: (err as Error)?.message }, 'dependency failure');
  for (const [k, v] of Object.entries(res.headers)) reply.header(k, v);
  void reply.status(res.status).type('application/json').send(res.body);
}

@Catch()
class AllErrorsFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}
  catch(err: unknown, host: ArgumentsHost) {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<FastifyRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    // A known path asked with a method it does not take: 405 with `Allow`, not 404.
    const allow = err instanceof NotFoundException && req ? allowedMethods(req) : [];
    if (allow.length > 0) {
      void reply.header('allow', allow.join(', '));
      const path = req.url.split('?')[0];
      return sendError(new MethodNotAllowedException(`${req.method} is not allowed on ${path}; it takes ${allow.join(', ')}`), reply, this.logger, req.id);
    }
    sendError(err, reply, this.logger, req?.id);
  }
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The methods the router has for this request's path (none when the path itself is unknown). */
function allowedMethods(req: FastifyRequest): string[] {
  const url = req.url.split('?')[0] ?? '/';
  return METHODS.filter((method) => method !== req.method && req.server.findRoute({ method, url }) !== null);
}

export interface HttpAppOptions {
  name: string;
  logger: Logger;
  /** Serve OpenAPI at /v1/openapi.json and a docs page at /docs. */
  openApi?: OpenApiOptions;
  accessLog?: boolean;
}

/**
 * Closes an app built by createHttpApp in the order a restart needs: first the HTTP server (no new
 * request is taken, those in flight finish with every module still up), then the modules' own
 * shutdown (Nest runs module destroy hooks before it closes the server, so a request still in
 * flight could meet a store already drained or a client already closed).
 */
export async function closeHttpApp(app: NestFastifyApplication): Promise<void> {
  await app.getHttpAdapter().getInstance().close();
  await app.close();
}

/** The one way every app builds its HTTP server: Fastify, limits, error model, request ids, logs. */
export async function createHttpApp(rootModule: unknown, options: HttpAppOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT,
    logger: false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : newId('req');
    },
    requestIdHeader: false,
    keepAliveTimeout: 65_000,
    // Fastify's own drain answer is a bare 503 outside the error model; ours is below (onRequest).
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Errors before a route exists answer in the error model too: a malformed path (FST_ERR_BAD_URL)…
    frameworkErrors: (err: Error, req: FastifyRequest, reply: FastifyReply) => {
      reply.header('x-request-id', req.id);
      sendError(err, reply, options.logger, req.id);
    },
    // …and what Node's HTTP parser refuses before any request (oversized headers → 431).
    clientErrorHandler: answerClientError,
  } as never);
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    logger: new PinoNestLogger(options.logger),
    bufferLogs: false,
    // Our own JSON parser (below) replaces Nest's: empty bodies allowed, proto poisoning refused.
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  installFastifyHooks(fastify, options);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllErrorsFilter(options.logger));
  // After the APP_GUARDs (the CallerGuard): authentication first, then the body.
  app.useGlobalGuards(new AcceptableBodyGuard());
  // No app.enableShutdownHooks(): runApp owns SIGTERM and closes in order (closeHttpApp drains first).
  // Nest's own handler ran the modules' destroy hooks beside that drain, under in-flight requests,
  // then re-raised the signal and killed the process mid-shutdown.
  if (options.openApi) setupOpenApi(app, options.openApi);
  return app;
}

function installFastifyHooks(fastify: FastifyInstance, options: HttpAppOptions): void {
  const logger = options.logger;
  // Empty bodies are allowed (POST .../publish); anything else must be JSON without proto poisoning.
  fastify.removeContentTypeParser('application/json');
  fastify.removeContentTypeParser('text/plain');
  // The edge rules of DESIGN 6.12 (depth, NUL, lone surrogates, UTF-8) run here, before any pipe.
  // A body the rules refuse is kept on the request, not thrown: AcceptableBodyGuard throws it once
  // the caller is known, so a wrong key gets its 401 whatever the body.
  // Bodies are read by readBodyThenParse: one over BODY_LIMIT is read to its end (within a bound)
  // before the 413, so the client can always read that answer.
  fastify.addContentTypeParser(
    'application/json',
    readBodyThenParse(BODY_LIMIT, (req, body, done) => {
      try {
        done(null, parseJsonBody(body));
      } catch (err) {
        (req as { bodyRefusal?: unknown }).bodyRefusal = err;
        done(null, undefined);
      }
    }),
  );
  // Any other media type is read (within the limit) and flagged: AcceptableBodyGuard answers 415
  // once the caller is known.
  fastify.addContentTypeParser(
    '*',
    readBodyThenParse(BODY_LIMIT, (req, _body, done) => {
      (req as { unsupportedMediaType?: boolean }).unsupportedMediaType = true;
      done(null, undefined);
    }),
  );
  // A request that reaches a replica once it has begun to close (a keep-alive connection still
  // open) is not run: 503 `unavailable` in the error model, with the connection closed, so the
  // client retries on another replica.
  let draining = false;
  fastify.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  fastify.addHook('onRequest', (req, reply, done) => {
    if (draining) {
      reply.header('connection', 'close');
      // Tells a calling service the request was not run: it may send it to another replica.
      reply.header(DRAINING_HEADER, '1');
      return done(unavailable('this replica is shutting down; retry the request'));
    }
    reply.header('x-request-id', req.id);
    done(urlInputError(req.url, req.params) ?? undefined);
  });
  // Headers decided during admission (rate limits) ride on every answer, errors included.
  fastify.addHook('onSend', (req, reply, payload, done) => {
    const extra = (req as unknown as { edgeHeaders?: Record<string, string> }).edgeHeaders;
    if (extra) for (const [k, v] of Object.entries(extra)) if (!reply.hasHeader(k)) reply.header(k, v);
    done(null, payload);
  });
  if (tracingEnabled()) installTracingHooks(fastify);
  watchStalls(fastify, logger);
  // Request count and latency per route pattern (never the raw URL: ids would explode the series).
  // Each route gets its own hook closing over its pattern (reading `req.routeOptions` would build
  // an object per request); answers without a route (404) are counted as `unmatched`.
  const metrics = processMetrics();
  fastify.addHook('onRoute', (route) => {
    const pattern = route.url;
    const observe: onResponseHookHandler = (req, reply, done) => {
      metrics.observeHttp(req.method, pattern, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    const own = route.onResponse;
    route.onResponse = own === undefined ? [observe] : [...(Array.isArray(own) ? own : [own]), observe];
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    if (req.is404) metrics.observeHttp(req.method, undefined, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  if (options.accessLog !== false) {
    fastify.addHook('onResponse', (req, reply, done) => {
      const caller = (req as unknown as { caller?: Caller }).caller;
      // In the request's trace context, so the line carries its trace id (tracing on).
      context.with(requestContext(req), () =>
        logger.info(
          {
            req_id: req.id,
            method: req.method,
            url: req.url.split('?')[0],
            status: reply.statusCode,
            ms: Math.round(reply.elapsedTime * 1000) / 1000,
            org_id: caller?.orgId,
            key_id: caller?.keyId,
          },
          'request',
        ),
      );
      done();
    });
  }
}
