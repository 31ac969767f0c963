import { Controller, Get, Module, Param } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { createHttpApp } from '../http-app';
import { ProbesController } from '../probes.controller';

@Controller('things')
class ThingsController {
  @Get(':id')
  get(@Param('id') id: string) {
    return { id };
  }
}

@Module({ controllers: [ThingsController, ProbesController] })
class ThingsModule {}

const count = (text: string, labels: string) =>
  Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`igw_http_requests_total{${labels}}`))
      ?.split(' ')
      .pop() ?? 0,
  );

/** Every app built by createHttpApp counts its answers by route pattern, and serves /metrics without a key. */
describe('createHttpApp: request metrics', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createHttpApp(ThingsModule, { name: 'metrics-test', logger: pino({ level: 'silent' }), accessLog: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app.close();
  });

  it('counts each answer once under its route pattern, never the raw path; no route is "unmatched"', async () => {
    const fastify = app.getHttpAdapter().getInstance();
    for (const id of ['a1', 'b2', 'c3']) expect((await fastify.inject({ method: 'GET', url: `/things/${id}` })).statusCode).toBe(200);
    expect((await fastify.inject({ method: 'GET', url: '/nothing/here' })).statusCode).toBe(404);

    const res = await fastify.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(count(res.body, 'method="GET",route="/things/:id",status="200"')).toBe(3);
    expect(count(res.body, 'method="GET",route="unmatched",status="404"')).toBe(1);
    expect(res.body).not.toMatch(/route="\/things\/(a1|b2|c3)"/);
    expect(res.body).not.toContain('/nothing/here');
  });
});
