import { Writable } from 'node:stream';
import { Body, Controller, Get, Module, Param, Post, Query } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsOptional, IsString } from 'class-validator';
import pino from 'pino';
import { createHttpApp } from './http-app';

class EchoBody {
  @IsOptional()
  @IsString()
  user_id?: string;
  @IsOptional()
  arguments?: unknown;
}

const reached: string[] = [];

@Controller('t')
class EchoController {
  @Post(':id')
  post(@Param('id') id: string, @Body() body: EchoBody) {
    reached.push(`post ${id}`);
    return { id, body };
  }

  @Get(':id')
  get(@Param('id') id: string, @Query('q') q?: string) {
    reached.push(`get ${id}`);
    return { id, q: q ?? null };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

/**
 * The edge rules wired into the one HTTP server every app builds (createHttpApp), through
 * Fastify's inject: refused before the validation pipe and the controller, in the error model,
 * with nothing in the log.
 */
describe('createHttpApp: edge input (DESIGN 6.12)', () => {
  let app: NestFastifyApplication;
  let logs = '';

  beforeAll(async () => {
    const sink = new Writable({ write: (chunk, _enc, cb) => ((logs += chunk.toString()), cb()) });
    app = await createHttpApp(EchoModule, { name: 'edge-test', logger: pino({ level: 'debug' }, sink), accessLog: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app?.close();
  });

  beforeEach(() => {
    reached.length = 0;
  });

  const post = (url: string, payload: string) => app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });

  it('refuses a 10,000-level body with 400 invalid_request before the pipe and the controller', async () => {
    // body = level 1, the outermost array 2: the 33rd level is the 32nd array, at arguments + 31 × [0].
    const res = await post('/t/x', `{"arguments":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'invalid_request',
      message: `body is nested deeper than 32 levels (at arguments${'[0]'.repeat(31)})`,
      details: [{ path: `arguments${'[0]'.repeat(31)}`, message: 'nests deeper than 32 levels' }],
    });
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(reached).toEqual([]);
  });

  it('accepts 32 levels', async () => {
    const res = await post('/t/x', `{"arguments":${'['.repeat(31)}${']'.repeat(31)}}`);
    expect(res.statusCode).toBe(201);
    expect(reached).toEqual(['post x']);
  });

  it('refuses lone surrogates in values and keys, and NUL, naming the field; accepts emoji', async () => {
    const surrogate = await post('/t/x', '{"user_id":"u\\ud800"}');
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json()).toMatchObject({ code: 'invalid_request', details: [{ path: 'user_id' }] });
    const key = await post('/t/x', '{"arguments":{"\\udfff":1}}');
    expect(key.json()).toMatchObject({ code: 'invalid_request', details: [{ path: 'arguments.\udfff' }] });
    const nul = await post('/t/x', '{"arguments":{"a":["\\u0000"]}}');
    expect(nul.json()).toMatchObject({ code: 'invalid_request', details: [{ path: 'arguments.a[0]' }] });
    expect(reached).toEqual([]);
    const emoji = await post('/t/x', '{"user_id":"\\ud83d\\ude00"}');
    expect(emoji.statusCode).toBe(201);
    expect(emoji.json().body).toEqual({ user_id: '😀' });
  });

  it('refuses query values that are not UTF-8 or hold NUL, and NUL in path parameters, naming them', async () => {
    for (const [url, path] of [
      ['/t/x?q=%ED%A0%80', 'q'],
      ['/t/x?q=%FF', 'q'],
      ['/t/x?q=a%00', 'q'],
      ['/t/a%00b', 'id'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(res.json()).toMatchObject({ code: 'invalid_request', message: expect.any(String), details: [{ path }] });
    }
    expect(reached).toEqual([]);
    const ok = await app.inject({ method: 'GET', url: '/t/%F0%9F%98%80?q=caf%C3%A9' });
    expect(ok.json()).toEqual({ id: '😀', q: 'café' });
  });

  it('answers a path the router cannot decode in the error model, not Fastify’s', async () => {
    const res = await app.inject({ method: 'GET', url: '/t/%FF' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'invalid_request',
      message: 'the URL path is not valid percent-encoded UTF-8',
      details: [{ path: 'path', message: expect.any(String) }],
    });
  });

  it('answers oversized headers (raised by Node before any request) with a JSON 431', () => {
    const socket = {
      writable: true,
      destroyed: false,
      written: '',
      write: (s: string) => ((socket.written += s), true),
      destroy: () => ((socket.destroyed = true), socket),
    };
    app.getHttpServer().emit('clientError', Object.assign(new Error('Header overflow'), { code: 'HPE_HEADER_OVERFLOW' }), socket);
    expect(socket.written).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(socket.written.split('\r\n\r\n')[1]!)).toMatchObject({ code: 'request_header_fields_too_large' });
  });

  it('logged none of these refusals, let alone a stack trace', () => {
    expect(logs).not.toMatch(/"level":(40|50)/);
    expect(logs).not.toMatch(/\bat .+:\d+:\d+/);
  });
});
