import { Logger } from '@nestjs/common';
import { systemClock } from '@igw/kernel';
import { waitUntil } from '@igw/testing/unit';
import type { DeliverDueUseCase } from '../../application/use-cases/deliver-due.use-case';
import type { DeliveryRepository } from '../../application/ports/webhook.repository.port';
import { DeliveryWorker } from './delivery.worker';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const until = (what: string, pred: () => boolean, timeoutMs = 2000): Promise<void> => waitUntil(what, pred, timeoutMs, 2);

/** A DeliverDueUseCase whose rounds return scripted counts (0 once the script runs out), optionally held open. */
class FakeRounds {
  script: number[] = [];
  rounds = 0;
  gate: Promise<void> | null = null;
  failNext: Error | null = null;
  onSettled: ((inFlight: number) => void) | null = null;
  drains = 0;
  async drain(): Promise<void> {
    this.drains++;
  }
  async execute(): Promise<number> {
    this.rounds++;
    if (this.gate) await this.gate;
    if (this.failNext) {
      const e = this.failNext;
      this.failNext = null;
      throw e;
    }
    return this.script.shift() ?? 0;
  }
}

function setup(opts: { pollMs?: number; enabled?: boolean; nextDueAt?: () => Date | null } = {}) {
  const rounds = new FakeRounds();
  let dueQueries = 0;
  const repo = {
    nextDueAt: async () => {
      dueQueries++;
      return opts.nextDueAt ? opts.nextDueAt() : null;
    },
  } as unknown as DeliveryRepository;
  const worker = new DeliveryWorker(
    rounds as unknown as DeliverDueUseCase,
    repo,
    { pollMs: opts.pollMs ?? 60_000, enabled: opts.enabled ?? true, maxInFlightHint: 500 },
    systemClock,
  );
  return { worker, rounds, dueQueries: () => dueQueries };
}

describe('DeliveryWorker', () => {
  const workers: DeliveryWorker[] = [];
  beforeAll(() => Logger.overrideLogger(false));
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.beforeApplicationShutdown()));
  });
  /** A worker started after `prepare` scripted its fakes. */
  const started = (opts: Parameters<typeof setup>[0] = {}, prepare: (t: ReturnType<typeof setup>) => void = () => undefined) => {
    const t = setup(opts);
    workers.push(t.worker);
    prepare(t);
    t.worker.onApplicationBootstrap();
    return t;
  };

  it('runs a round at start-up, and another when nudged', async () => {
    const t = started();
    await until('first round', () => t.dueQueries() === 1);
    expect(t.rounds.rounds).toBe(1);
    t.worker.nudge();
    await until('nudged round', () => t.dueQueries() === 2);
    expect(t.rounds.rounds).toBe(2);
  });

  it('repeats rounds while they find work, then asks when the next delivery is due', async () => {
    const t = started({}, (u) => (u.rounds.script = [50, 50, 3]));
    await until('rounds', () => t.dueQueries() === 1);
    expect(t.rounds.rounds).toBe(4);
  });

  it('a nudge during a round runs one more round after it', async () => {
    let open!: () => void;
    const t = started({}, (u) => (u.rounds.gate = new Promise<void>((r) => (open = r))));
    await until('round started', () => t.rounds.rounds === 1);
    t.worker.nudge();
    t.worker.nudge();
    t.rounds.gate = null;
    open();
    await until('second round', () => t.dueQueries() === 2);
    expect(t.rounds.rounds).toBe(2);
    await sleep(30);
    expect(t.rounds.rounds).toBe(2);
  });

  it('wakes up at the next due retry, sooner than the poll interval', async () => {
    const t = started({ pollMs: 60_000, nextDueAt: () => new Date(Date.now() + 40) });
    await until('first round', () => t.rounds.rounds === 1);
    const t0 = Date.now();
    await until('timer round', () => t.rounds.rounds === 2, 1000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(20);
  });

  it('polls every pollMs when nothing is due', async () => {
    const t = started({ pollMs: 25 });
    await until('polled rounds', () => t.rounds.rounds >= 3, 1000);
  });

  it('a failing round is logged and retried at the next poll', async () => {
    const t = setup({ pollMs: 25 });
    workers.push(t.worker);
    t.rounds.failNext = new Error('database is unavailable');
    t.worker.onApplicationBootstrap();
    await until('retry after failure', () => t.rounds.rounds >= 2 && t.dueQueries() >= 1, 1000);
  });

  it('shutdown waits for the round in flight and starts no more', async () => {
    const t = setup({ pollMs: 10 });
    let open!: () => void;
    t.rounds.gate = new Promise<void>((r) => (open = r));
    t.rounds.script = [5, 5, 5];
    t.worker.onApplicationBootstrap();
    await until('round started', () => t.rounds.rounds === 1);

    let stopped = false;
    const stopping = t.worker.beforeApplicationShutdown().then(() => (stopped = true));
    await sleep(30);
    expect(stopped).toBe(false);
    open();
    await stopping;
    // The round in flight finished, then the attempts it started (drain); the rounds it would have repeated did not start.
    expect(t.rounds.rounds).toBe(1);
    expect(t.rounds.drains).toBe(1);
    t.worker.nudge();
    await sleep(40);
    expect(t.rounds.rounds).toBe(1);
  });

  it('does nothing when disabled (tests drive rounds themselves)', async () => {
    const t = started({ enabled: false });
    t.worker.nudge();
    await sleep(30);
    expect(t.rounds.rounds).toBe(0);
  });
});
