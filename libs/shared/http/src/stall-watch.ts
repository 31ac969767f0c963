import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** A request still unanswered after this long is reported (no endpoint legitimately takes it). */
export const REQUEST_STALL_MS = 30_000;
/** A timer late by this much means the event loop was blocked (nothing answered meanwhile). */
export const LOOP_STALL_MS = 5_000;
const TICK_MS = 1_000;

interface InFlight {
  method: string;
  path: string;
  at: number;
  reported: boolean;
}

/**
 * Says, in the log, what a process that stopped answering is stuck on: each request unanswered
 * after REQUEST_STALL_MS (method, path, request id: never a body or a header), and each time the
 * event loop was blocked. Lines start with `stall:`; the e2e harness prints them with a failing
 * suite. Costs one Map entry per request in flight and one timer per process.
 */
export function watchStalls(fastify: FastifyInstance, logger: Logger, now: () => number = Date.now): { stop(): void } {
  const inFlight = new Map<string, InFlight>();
  fastify.addHook('onRequest', (req, _reply, done) => {
    inFlight.set(req.id, { method: req.method, path: req.url.split('?')[0] ?? '', at: now(), reported: false });
    done();
  });
  const forget = (req: { id: string }, _reply: unknown, done: () => void) => {
    inFlight.delete(req.id);
    done();
  };
  fastify.addHook('onResponse', forget);
  fastify.addHook('onRequestAbort', (req, done) => forget(req, undefined, done));

  let last = now();
  const timer = setInterval(() => {
    const t = now();
    const late = t - last - TICK_MS;
    last = t;
    if (late >= LOOP_STALL_MS) logger.warn({ blocked_ms: late }, 'stall: the event loop was blocked');
    for (const [id, r] of inFlight) {
      if (r.reported || t - r.at < REQUEST_STALL_MS) continue;
      r.reported = true;
      logger.warn({ req_id: id, method: r.method, url: r.path, waiting_ms: t - r.at, in_flight: inFlight.size }, 'stall: a request is still unanswered');
    }
  }, TICK_MS);
  timer.unref();
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
  return { stop: () => clearInterval(timer) };
}
