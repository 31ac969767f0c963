import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Body, Controller, Module, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { fetch } from 'undici';
import { BODY_LIMIT, createHttpApp } from './http-app';

@Controller('v1/intent')
class EvaluateController {
  @Post('evaluate')
  evaluate(@Body() body: unknown) {
    return { ok: body !== undefined };
  }
}

@Module({ controllers: [EvaluateController] })
class EvaluateModule {}

const TRIES = 20;
const SIZES: Array<[string, number]> = [
  ['just over the limit', BODY_LIMIT + 1],
  ['2 MB', 2_000_000],
  ['50 times the limit', 50 * BODY_LIMIT],
];
const TOO_LARGE = { code: 'payload_too_large', message: expect.stringMatching(/\S/) };
const run = promisify(execFile);

/**
 * The fetch client runs in a process of its own, as a real client does: one event loop with the
 * server would take turns with it and hide the race.
 */
const FETCH_CLIENT = `
const { fetch } = require(${JSON.stringify(require.resolve('undici'))});
const [url, size, tries] = process.argv.slice(1);
const head = '{"user_id":"u","arguments":"';
const body = head + 'x'.repeat(Number(size) - head.length - 2) + '"}';
(async () => {
  const seen = [];
  for (let i = 0; i < Number(tries); i++) {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      seen.push([res.status, res.headers.get('content-type'), await res.json()]);
    } catch (err) {
      seen.push(err.message + ': ' + String(err.cause));
    }
  }
  process.stdout.write(JSON.stringify(seen));
})();
`;

/** A JSON document of exactly `size` bytes. */
function jsonOf(size: number): string {
  const head = '{"user_id":"u","arguments":"';
  return `${head}${'x'.repeat(size - head.length - 2)}"}`;
}

/**
 * An oversized body, on a real socket: the server must let the client finish sending before it
 * answers and closes, or the client can lose the 413 to a connection reset (`fetch failed`).
 */
describe('createHttpApp: oversized bodies over a real connection', () => {
  let app: NestFastifyApplication;
  let url: string;
  let dir: string;

  beforeAll(async () => {
    app = await createHttpApp(EvaluateModule, { name: 'body-limit-test', logger: pino({ level: 'silent' }), accessLog: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address() as AddressInfo;
    url = `http://127.0.0.1:${port}/v1/intent/evaluate`;
    dir = mkdtempSync(join(tmpdir(), 'igw-413-'));
  });

  afterAll(async () => {
    await app?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('still takes a body at the limit', async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: jsonOf(BODY_LIMIT) });
    expect([res.status, await res.json()]).toEqual([201, { ok: true }]);
  });

  it.each(SIZES)('answers 413 in the error model to fetch (undici), %s, every time', async (_label, size) => {
    const { stdout } = await run(process.execPath, ['-e', FETCH_CLIENT, url, String(size), String(TRIES)], { maxBuffer: 1024 * 1024 });
    expect(JSON.parse(stdout)).toEqual(Array(TRIES).fill([413, 'application/json; charset=utf-8', TOO_LARGE]));
  });

  it.each(SIZES)('answers 413 in the error model to curl, %s, every time', async (_label, size) => {
    const file = join(dir, `body-${size}.json`);
    writeFileSync(file, jsonOf(size));
    const seen: unknown[] = [];
    for (let i = 0; i < TRIES; i++) {
      const args = ['-sS', '-o', '-', '-w', '\n%{http_code}', '-H', 'content-type: application/json', '--data-binary', `@${file}`, url];
      try {
        const { stdout } = await run('curl', args, { maxBuffer: 1024 * 1024 });
        const [text, status] = [stdout.slice(0, stdout.lastIndexOf('\n')), stdout.slice(stdout.lastIndexOf('\n') + 1)];
        seen.push([Number(status), JSON.parse(text)]);
      } catch (err) {
        seen.push(`curl failed: ${(err as { stderr?: string }).stderr ?? (err as Error).message}`);
      }
    }
    expect(seen).toEqual(Array(TRIES).fill([413, TOO_LARGE]));
  });
});
