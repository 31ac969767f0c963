import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/**
 * The console's policy: its own scripts, styles and API calls only. No inline script, no third
 * party, no framing (the console approves tool calls; clickjacking it must not be possible).
 */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** Where the build puts the console (dist/apps/console), from this file's place in dist/. */
export function consoleRoot(): string {
  return resolve(__dirname, '../../../../../apps/console');
}

/**
 * Serves the console's static files at /console/ (DESIGN 6.14), with `/` redirecting there
 * when `redirectRoot` (embedded mode, where the gateway is the whole product). The console
 * calls only the public API, with the operator's key; serving it needs no authentication.
 * Returns false (and logs why) when the built console is not there.
 */
export async function serveConsole(app: NestFastifyApplication, options: { logger: Logger; redirectRoot: boolean; root?: string }): Promise<boolean> {
  const root = options.root ?? consoleRoot();
  if (!existsSync(join(root, 'index.html'))) {
    options.logger.warn({ root }, 'console not served: its files are not built (npm run build)');
    return false;
  }
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  await fastify.register(fastifyStatic, {
    root,
    prefix: '/console/',
    decorateReply: false,
    index: false,
    // Files change with a deployment, not under it; the HTML is always revalidated.
    maxAge: '1h',
    setHeaders: (reply, path) => {
      for (const [k, v] of Object.entries(CONSOLE_SECURITY_HEADERS)) reply.header(k, v);
      if (path.endsWith('.html')) reply.header('cache-control', 'no-cache');
    },
  });
  // `/console` and `/console/` are one route (the router ignores trailing slashes): the page.
  const page = readFileSync(join(root, 'index.html'));
  fastify.get('/console', (_req, reply) =>
    reply
      .headers({ ...CONSOLE_SECURITY_HEADERS, 'cache-control': 'no-cache' })
      .type('text/html; charset=utf-8')
      .send(page),
  );
  if (options.redirectRoot) fastify.get('/', (_req, reply) => reply.redirect('/console/', 302));
  return true;
}
