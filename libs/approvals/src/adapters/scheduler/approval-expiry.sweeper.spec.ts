import { Logger } from '@nestjs/common';
import type { ExpireApprovalsUseCase } from '../../application/use-cases/expire-approvals.use-case';
import { ApprovalExpirySweeper } from './approval-expiry.sweeper';

function fakeUseCase(run: () => Promise<number> = async () => 0) {
  const calls = { count: 0 };
  const useCase = { execute: () => (calls.count++, run()) } as unknown as ExpireApprovalsUseCase;
  return { useCase, calls };
}

describe('ApprovalExpirySweeper', () => {
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sweeps every interval from module init until module destroy, on an unref-ed timer', async () => {
    const { useCase, calls } = fakeUseCase();
    const sweeper = new ApprovalExpirySweeper(useCase, { intervalMs: 1000 });
    const setIntervalSpy = jest.spyOn(globalThis, 'setInterval');
    sweeper.onModuleInit();
    sweeper.onModuleInit();
    expect(setIntervalSpy).toHaveBeenCalledTimes(1);
    expect((setIntervalSpy.mock.results[0]!.value as { hasRef(): boolean }).hasRef()).toBe(false);
    setIntervalSpy.mockRestore();
    await jest.advanceTimersByTimeAsync(3500);
    expect(calls.count).toBe(3);
    await sweeper.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(5000);
    expect(calls.count).toBe(3);
  });

  it('never overlaps sweeps, and shutdown waits for the one in flight', async () => {
    let finish!: (n: number) => void;
    const { useCase, calls } = fakeUseCase(() => new Promise<number>((r) => (finish = r)));
    const sweeper = new ApprovalExpirySweeper(useCase, { intervalMs: 100 });
    sweeper.start();
    await jest.advanceTimersByTimeAsync(550);
    expect(calls.count).toBe(1);
    let stopped = false;
    const stopping = sweeper.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(10);
    expect(stopped).toBe(false);
    finish(2);
    await stopping;
    expect(stopped).toBe(true);
  });

  it('survives a failing sweep and tries again on the next tick', async () => {
    let fail = true;
    const { useCase, calls } = fakeUseCase(async () => {
      if (fail) throw new Error('database is unavailable');
      return 1;
    });
    const sweeper = new ApprovalExpirySweeper(useCase, { intervalMs: 100 });
    await expect(sweeper.sweep()).resolves.toBeUndefined();
    fail = false;
    sweeper.start();
    await jest.advanceTimersByTimeAsync(100);
    expect(calls.count).toBe(2);
    await sweeper.stop();
  });

  it('an interval of 0 turns it off', async () => {
    const { useCase, calls } = fakeUseCase();
    const sweeper = new ApprovalExpirySweeper(useCase, { intervalMs: 0 });
    sweeper.onModuleInit();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(calls.count).toBe(0);
    await sweeper.onModuleDestroy();
  });
});
