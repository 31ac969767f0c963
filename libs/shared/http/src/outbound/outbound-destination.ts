import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { isPublicAddress } from './public-address';

/**
 * Outbound calls to destinations a tenant chose (webhook endpoints, MCP upstreams) must not reach
 * the gateway's own network: only public unicast addresses, unless private ones are explicitly
 * allowed (WEBHOOKS_ALLOW_PRIVATE, MCP_UPSTREAMS_ALLOW_PRIVATE; dev and tests). What is public is
 * `isPublicAddress` (./public-address).
 */

export { isPublicAddress };

/** A connection refused because its destination is not public (the message names the host). */
export class DestinationRefusedError extends Error {}

/** The host of a URL as an address or name (IPv6 literals without their brackets). */
export const destinationHost = (url: string): string => new URL(url).hostname.replace(/^\[|\]$/g, '');

/**
 * A `lookup` for the connection that refuses names resolving to non-public addresses, so the
 * address checked is the address connected to (no DNS-rebinding window between check and use).
 */
export function safeLookup(allowPrivate: boolean, resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = (addresses as unknown as LookupAddress[]).filter((a) => allowPrivate || isPublicAddress(a.address));
      const [first] = list;
      if (!first) return callback(new DestinationRefusedError(`${hostname} resolves only to private, loopback or link-local addresses`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, first.address, first.family);
    });
  };
}

export interface DestinationOptions {
  /** Also accept private, loopback and link-local addresses (dev and tests). */
  allowPrivate: boolean;
  /** Injected in tests; node's dns.lookup otherwise. */
  lookup?: typeof dnsLookup;
}

/**
 * Why calls may not go to this URL's host, or null (checked when the destination is registered):
 * an IP literal must be public; a name must resolve, and to public addresses only. The message
 * names `field` (default `url`).
 */
export async function destinationProblem(url: string, options: DestinationOptions, field = 'url'): Promise<string | null> {
  const host = destinationHost(url);
  if (isIP(host)) return options.allowPrivate || isPublicAddress(host) ? null : `${field} points at ${host}, which is not a public address`;
  const resolve = options.lookup ?? dnsLookup;
  const addresses = await new Promise<LookupAddress[] | null>((done) =>
    resolve(host, { all: true }, (err, list) => done(err ? null : (list as unknown as LookupAddress[]))),
  );
  if (addresses === null || addresses.length === 0) return `${field} host ${host} does not resolve`;
  if (options.allowPrivate) return null;
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  return bad ? `${field} host ${host} resolves to ${bad.address}, which is not a public address` : null;
}

export interface SafeDispatcherOptions extends DestinationOptions {
  /** Connect deadline. */
  timeoutMs: number;
  /** Connections per origin (undici's default otherwise). */
  connections?: number;
  keepAliveTimeout?: number;
  /** Deadlines for the answer's headers and between its body's chunks (undici's 300 s otherwise). */
  answerTimeoutMs?: number;
}

/**
 * An undici Agent that only connects to public addresses (unless `allowPrivate`): names through
 * `safeLookup` (checked at connect time), IP literals before connecting. Its errors carry a
 * DestinationRefusedError (itself or as `cause`) when the destination was refused.
 */
export function safeDispatcher(options: SafeDispatcherOptions): Agent {
  const connector = buildConnector({ timeout: options.timeoutMs, lookup: safeLookup(options.allowPrivate, options.lookup) } as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (opts, callback) => {
    const host = opts.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !options.allowPrivate && !isPublicAddress(host)) {
      callback(new DestinationRefusedError(`destination ${host} is not a public address`), null);
      return;
    }
    connector(opts, callback);
  };
  return new Agent({
    connect,
    ...(options.connections !== undefined ? { connections: options.connections } : {}),
    ...(options.keepAliveTimeout !== undefined ? { keepAliveTimeout: options.keepAliveTimeout } : {}),
    ...(options.answerTimeoutMs !== undefined ? { headersTimeout: options.answerTimeoutMs, bodyTimeout: options.answerTimeoutMs } : {}),
  });
}

/** True when `err` (or its cause) is a refused destination. */
export function isDestinationRefused(err: unknown): boolean {
  const e = err as { cause?: unknown } | null;
  return err instanceof DestinationRefusedError || (typeof e === 'object' && e !== null && e.cause instanceof DestinationRefusedError);
}
