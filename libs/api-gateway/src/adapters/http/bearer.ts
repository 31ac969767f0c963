import type { RequestLike } from '@igw/http';

/** The Authorization header as sent (its first value) and the token of a well-formed `Bearer <token>` in it. */
export function bearerOf(req: RequestLike): { header: string | undefined; token: string | undefined } {
  const raw = req.headers.authorization;
  const header = Array.isArray(raw) ? raw[0] : raw;
  return { header, token: header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined };
}
