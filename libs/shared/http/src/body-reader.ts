import { errorCodes, type FastifyRequest } from 'fastify';

/**
 * How much of an oversized body is read (and dropped) before the 413 is sent. Fastify answers a
 * refused body with `Connection: close`; closing a socket whose client is still sending makes the
 * kernel reset the connection, and the client may lose the answer with it (`fetch failed`, a
 * broken pipe). Reading what the client sends first lets it always read the 413. A body longer
 * than this is answered at once: nobody sends 32 MiB by mistake.
 */
export const OVERSIZED_BODY_DRAIN_LIMIT = 32 * 1024 * 1024;

type Payload = NodeJS.ReadableStream & { receivedEncodedLength?: number };
type Done = (err: Error | null, body?: unknown) => void;

/**
 * Fastify's buffering of a request body (its `parseAs: 'buffer'`), except that a body over
 * `limit` is read to its end, up to `drainLimit`, before FST_ERR_CTP_BODY_TOO_LARGE is passed on.
 */
export function readBodyThenParse(limit: number, parse: (req: FastifyRequest, body: Buffer, done: Done) => void, drainLimit = OVERSIZED_BODY_DRAIN_LIMIT) {
  return (req: FastifyRequest, payload: Payload, done: Done): void => {
    const declared = Number(req.headers['content-length']);
    if (declared > drainLimit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (err: Error | null, body?: Buffer) => {
      if (settled) return;
      settled = true;
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
      if (err) done(err);
      else parse(req, body as Buffer, done);
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += buf.length;
      if (received > drainLimit) return finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      // Past the limit the rest is only counted: the client gets its 413 once it has sent it all.
      if (received <= limit && (payload.receivedEncodedLength ?? 0) <= limit) chunks.push(buf);
    };
    const onEnd = () => {
      if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) return finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      if (!Number.isNaN(declared) && (payload.receivedEncodedLength || received) !== declared) {
        return finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      }
      finish(null, Buffer.concat(chunks, received));
    };
    const onError = (err: Error & { statusCode?: number }) => {
      if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
      finish(err);
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
    payload.resume();
  };
}
