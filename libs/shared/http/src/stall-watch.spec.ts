import Fastify from 'fastify';
import type { Logger } from 'pino';
import { LOOP_STALL_MS, REQUEST_STALL_MS, watchStalls } from './stall-watch';

/** What a process that stopped answering says about it: each long-unanswered request once, and a blocked loop. */
describe('watchStalls', () => {
  const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
  const logger = { warn: (obj: Record<string, unknown>, msg: string) => warnings.push({ obj, msg }) } as unknown as Logger;
  let clock = 0;

  beforeEach(() => {
    warnings.length = 0;
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });
  afterEach(() => jest.useRealTimers());

  it('reports a request unanswered past the limit once (method, path, id: never the query or a header), and none answered in time', async () => {
    const app = Fastify({ genReqId: () => `req_${++clock}` });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    app.get('/slow', async () => {
      await held;
      return { ok: true };
    });
    app.get('/fast', async () => ({ ok: true }));
    const watch = watchStalls(app, logger, () => Date.now());
    await app.ready();
    expect((await app.inject({ url: '/fast' })).statusCode).toBe(200);
    const slow = app.inject({ url: '/slow?token=secret', headers: { authorization: 'Bearer k' } });
    await new Promise((r) => setImmediate(r));
    jest.advanceTimersByTime(REQUEST_STALL_MS - 1000);
    expect(warnings).toEqual([]);
    jest.advanceTimersByTime(2000);
    jest.advanceTimersByTime(5000);
    expect(warnings).toEqual([
      {
        msg: 'stall: a request is still unanswered',
        obj: { req_id: 'req_2', method: 'GET', url: '/slow', waiting_ms: expect.any(Number), in_flight: 1 },
      },
    ]);
    expect(JSON.stringify(warnings)).not.toMatch(/secret|Bearer/);
    release();
    expect((await slow).statusCode).toBe(200);
    jest.advanceTimersByTime(REQUEST_STALL_MS * 2);
    expect(warnings).toHaveLength(1);
    watch.stop();
    await app.close();
  });

  it('reports an event loop that was blocked', async () => {
    const app = Fastify();
    let now = 0;
    const watch = watchStalls(app, logger, () => now);
    now += 1000;
    jest.advanceTimersByTime(1000);
    expect(warnings).toEqual([]);
    // The tick comes late: the loop did nothing else meanwhile.
    now += 1000 + LOOP_STALL_MS;
    jest.advanceTimersByTime(1000);
    expect(warnings).toEqual([{ msg: 'stall: the event loop was blocked', obj: { blocked_ms: LOOP_STALL_MS } }]);
    watch.stop();
    await app.close();
  });
});
