import { BadRequestException, NotFoundException } from '@nestjs/common';
import { DependencyUnavailableError, invalidRequest, rateLimited } from '@igw/kernel';
import { toErrorResponse } from './error-mapping';

describe('toErrorResponse', () => {
  it('maps domain errors to their status with code, message and extra fields', () => {
    const r = toErrorResponse(invalidRequest('label is bad', [{ path: 'label', message: 'bad' }]));
    expect(r).toMatchObject({ status: 400, body: { code: 'invalid_request', message: 'label is bad', details: [{ path: 'label', message: 'bad' }] } });
  });

  it('puts a whole-second Retry-After on 429s', () => {
    const r = toErrorResponse(rateLimited('rate_limited', 'slow down', 0.2));
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.body).not.toHaveProperty('retry_after');
  });

  it('answers 503 unavailable when the database cannot be reached', () => {
    expect(toErrorResponse(new DependencyUnavailableError('database')).status).toBe(503);
    const prismaLike = Object.assign(new Error('x'), { cause: { code: 'ECONNREFUSED' } });
    expect(toErrorResponse(prismaLike)).toMatchObject({ status: 503, body: { code: 'unavailable' } });
  });

  it('maps body-parser failures and Nest exceptions to the error model', () => {
    expect(toErrorResponse(Object.assign(new Error('big'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })).body.code).toBe('payload_too_large');
    expect(toErrorResponse(new NotFoundException()).body.code).toBe('not_found');
    expect(toErrorResponse(new BadRequestException('nope')).body).toEqual({ code: 'invalid_request', message: 'nope' });
  });

  it("maps the router's refusals (undecodable path, over-long parameter) to 400 invalid_request naming the path", () => {
    for (const code of ['FST_ERR_BAD_URL', 'FST_ERR_MAX_PARAM_LENGTH']) {
      const r = toErrorResponse(Object.assign(new Error("'/v1/x/%FF' is not a valid url component"), { code, statusCode: 400 }));
      expect(r).toMatchObject({ status: 400, body: { code: 'invalid_request', details: [{ path: 'path' }] }, unexpected: false });
      expect(r.body.message).not.toContain('JSON');
    }
  });

  it('never leaks an unexpected error', () => {
    const r = toErrorResponse(new TypeError('cannot read x of undefined at /srv/app.js:1:2'));
    expect(r).toMatchObject({ status: 500, body: { code: 'internal', message: 'internal error' }, unexpected: true });
  });
});
