import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { readBodyThenParse } from './body-reader';

type Result = { err: (Error & { code?: string }) | null; body?: unknown; ended: boolean };

/** Feeds `chunks` to a body reader of limit 10 (drain limit 100); resolves with what it answered. */
function read(chunks: string[], headers: Record<string, string> = {}): Promise<Result> {
  const payload = new PassThrough();
  let ended = false;
  payload.on('end', () => (ended = true));
  return new Promise((resolve) => {
    const reader = readBodyThenParse(10, (_req, body, done) => done(null, body.toString()), 100);
    reader({ headers } as FastifyRequest, payload, (err, body) => resolve({ err, body, ended }));
    for (const c of chunks) payload.write(c);
    payload.end();
  });
}

describe('readBodyThenParse', () => {
  it('hands a body within the limit to the parser', async () => {
    expect(await read(['{"a":', '1}'], { 'content-length': '7' })).toEqual({ err: null, body: '{"a":1}', ended: true });
  });

  it('reads an oversized body to its end before answering 413', async () => {
    const res = await read(['x'.repeat(8), 'x'.repeat(8), 'x'.repeat(50)], { 'content-length': '66' });
    expect([res.err?.code, res.ended]).toEqual(['FST_ERR_CTP_BODY_TOO_LARGE', true]);
  });

  it('answers at once past the drain limit, declared or sent', async () => {
    expect((await read([], { 'content-length': '101' })).err?.code).toBe('FST_ERR_CTP_BODY_TOO_LARGE');
    const res = await read(['x'.repeat(60), 'x'.repeat(60), 'x'.repeat(60)]);
    expect([res.err?.code, res.ended]).toEqual(['FST_ERR_CTP_BODY_TOO_LARGE', false]);
  });

  it('refuses a body shorter than its Content-Length', async () => {
    expect((await read(['abc'], { 'content-length': '5' })).err?.code).toBe('FST_ERR_CTP_INVALID_CONTENT_LENGTH');
  });
});
