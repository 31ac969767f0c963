import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Controller, Get, Module } from '@nestjs/common';
import pino from 'pino';
import { createHttpApp } from './http-app';

let entered: () => void = () => undefined;
let release: () => void = () => undefined;
const slowEntered = new Promise<void>((r) => (entered = r));
const gate = new Promise<void>((r) => (release = r));

@Controller('t')
class DrainController {
  @Get('slow')
  async slow() {
    entered();
    await gate;
    return { slow: true };
  }

  @Get('fast')
  fast() {
    return { fast: true };
  }
}

@Module({ controllers: [DrainController] })
class DrainModule {}

describe('createHttpApp: a replica that has begun to close', () => {
  it('answers a request that still reaches it 503 unavailable in the error model, closing the connection, without running it', async () => {
    const app = await createHttpApp(DrainModule, { name: 'drain', logger: pino({ level: 'silent' }), accessLog: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    const ended = new Promise<void>((r) => socket.on('close', () => r()));
    // One keep-alive connection, busy when the close begins (so it is not reaped as idle).
    socket.write('GET /t/slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await slowEntered;
    const closed = app.close();
    await new Promise((r) => setTimeout(r, 50));
    release();
    while (!received.includes('{"slow":true}')) await new Promise((r) => setTimeout(r, 10));
    // The next request on that connection reaches the closing replica.
    socket.write('GET /t/fast HTTP/1.1\r\nHost: x\r\n\r\n');
    await ended;
    await closed;
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503/);
    expect(answers[1]).toMatch(/\r\nconnection: close\r\n/i);
    const body = JSON.parse(answers[1]!.slice(answers[1]!.indexOf('\r\n\r\n') + 4)) as unknown;
    expect(body).toEqual({ code: 'unavailable', message: 'this replica is shutting down; retry the request' });
  });
});
