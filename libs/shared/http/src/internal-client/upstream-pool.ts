import { BalancedPool, Pool, type Dispatcher } from 'undici';

/** The base URLs in a service URL setting: one URL, or the replicas' URLs comma-separated. */
export function serviceUrls(setting: string): string[] {
  return setting
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
}

export type UpstreamPool = Pool | BalancedPool;

/**
 * A keep-alive pool over a service: a Pool for one URL, undici's BalancedPool over several
 * replicas (it spreads requests and lowers the weight of a replica that fails). In Kubernetes
 * the Service balances and the setting is one URL; locally, replicas are listed.
 */
export function upstreamPool(setting: string, options: Pool.Options): UpstreamPool {
  const urls = serviceUrls(setting);
  if (urls.length === 0) throw new Error('a service URL setting is empty');
  return urls.length === 1 ? new Pool(urls[0] as string, options) : new BalancedPool(urls, options);
}

/** How many replicas a pool balances over. */
export function upstreamCount(pool: UpstreamPool): number {
  return pool instanceof BalancedPool ? pool.upstreams.length : 1;
}

const REFUSED = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT']);

/** A request that never reached a replica (refused, no connection made): safe to send to another. */
export function neverReached(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++)
    if (e.code !== undefined && REFUSED.has(e.code)) return true;
  return false;
}

/** On a 503: the replica was shutting down and did not run the request. */
export const DRAINING_HEADER = 'igw-draining';

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const socketClosed = (err: unknown) => (err as { code?: string }).code === 'UND_ERR_SOCKET';

/**
 * Sends `options` through `pool`, trying another replica while the request never reached one (a
 * replica that is down or restarting), or — for an idempotent method only — while a replica closed
 * the connection without answering (the keep-alive race of a replica that is draining). Anything
 * else, and the last failure, is thrown: a POST that may have been handled is never sent twice. A
 * 503 marked DRAINING_HEADER (a replica that refused the request as it shut down, before running
 * it) is sent to another replica too, whatever the method.
 */
export async function requestAnyReplica(pool: UpstreamPool, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  const attempts = Math.max(2, upstreamCount(pool));
  for (let i = 1; ; i++) {
    try {
      const res = await pool.request(options);
      // A draining replica refused it before running it (any method): another replica may run it.
      if (res.statusCode === 503 && res.headers[DRAINING_HEADER] === '1' && i < attempts) {
        await res.body.dump();
        continue;
      }
      return res;
    } catch (err) {
      const retry = neverReached(err) || (socketClosed(err) && IDEMPOTENT.has(String(options.method).toUpperCase()));
      if (i >= attempts || !retry) throw err;
    }
  }
}
