import { PeriodicTask } from './periodic-task';

describe('PeriodicTask', () => {
  const quiet = () => ({ warn: jest.fn(), log: jest.fn() });
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('with runAtStart runs at once, then every interval, on an unref-ed timer', async () => {
    let runs = 0;
    const task = new PeriodicTask('t', async () => runs++, { intervalMs: 1000, runAtStart: true }, quiet());
    const spy = jest.spyOn(globalThis, 'setInterval');
    task.start();
    task.start();
    expect(spy).toHaveBeenCalledTimes(1);
    expect((spy.mock.results[0]!.value as { hasRef(): boolean }).hasRef()).toBe(false);
    spy.mockRestore();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(2000);
    expect(runs).toBe(3);
    await task.stop();
    await jest.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(3);
  });

  it('reports a failure once per outage, and its recovery', async () => {
    let fail = true;
    const log = quiet();
    const task = new PeriodicTask(
      'purge',
      async () => {
        if (fail) throw new Error('database is unavailable');
      },
      { intervalMs: 100 },
      log,
    );
    await task.runOnce();
    await task.runOnce();
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledWith('purge failed: database is unavailable');
    fail = false;
    await task.runOnce();
    expect(log.log).toHaveBeenCalledWith('purge recovered');
  });

  it('an interval of 0 never runs, even with runAtStart', async () => {
    let runs = 0;
    const task = new PeriodicTask('t', async () => runs++, { intervalMs: 0, runAtStart: true }, quiet());
    task.start();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(0);
    await task.stop();
  });
});
