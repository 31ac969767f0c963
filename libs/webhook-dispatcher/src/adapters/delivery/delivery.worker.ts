import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock } from '@igw/kernel';
import { DELIVERY_REPOSITORY, type DeliveryRepository } from '../../application/ports/webhook.repository.port';
import { DeliverDueUseCase } from '../../application/use-cases/deliver-due.use-case';
import type { DeliveryNudge } from '../../application/use-cases/fan-out-event.use-case';

export const DELIVERY_WORKER_OPTIONS = Symbol('DELIVERY_WORKER_OPTIONS');
/** Nudges within this window share one delivery round. */
const NUDGE_COALESCE_MS = 5;
export interface DeliveryWorkerOptions {
  /** Longest sleep between rounds (other replicas' new deliveries are found within this). */
  pollMs: number;
  /** Off in tests that drive rounds themselves. */
  enabled: boolean;
  /** The use case's in-flight limit: at half of it a settling attempt starts the next round. */
  maxInFlightHint: number;
}

/**
 * Runs delivery rounds: at once when nudged (a fan-out in this process), at the next due retry,
 * and at least every `pollMs`. Rounds run while they find work. The state lives in the database,
 * so a restart mid-backoff picks the schedule up where it was.
 */
@Injectable()
export class DeliveryWorker implements DeliveryNudge, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private soon: NodeJS.Timeout | null = null;

  constructor(
    private readonly deliverDue: DeliverDueUseCase,
    @Inject(DELIVERY_REPOSITORY) private readonly deliveries: DeliveryRepository,
    @Inject(DELIVERY_WORKER_OPTIONS) private readonly options: DeliveryWorkerOptions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.enabled) return;
    this.stopped = false;
    // Take more when the attempts under way are done (or half done): a claim per finished attempt
    // would cost a query each; rounds in between are started by the timer and by fan-outs.
    this.deliverDue.onSettled = (inFlight) => {
      if (inFlight === 0 || inFlight === Math.floor(this.options.maxInFlightHint / 2)) this.nudge();
    };
    this.nudge();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.soon) clearTimeout(this.soon);
    // Attempts in flight finish and are recorded; leases of anything else simply run out.
    while (this.running) await this.running;
    await this.deliverDue.drain();
  }

  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // Nudges that come together (a fan-out per event) share one round: a claim is a query.
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      this.start();
    }, NUDGE_COALESCE_MS);
  }

  private start(): void {
    if (this.stopped || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.loop().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.nudge();
      }
    });
  }

  private async loop(): Promise<void> {
    let delay = this.options.pollMs;
    try {
      // Rounds start attempts without waiting for them (a slow receiver holds up nobody else).
      while (!this.stopped && (await this.deliverDue.execute({ wait: false })) > 0) this.again = false;
      const next = await this.deliveries.nextDueAt();
      if (next) delay = Math.max(10, Math.min(delay, next.getTime() - this.clock.now().getTime()));
    } catch (err) {
      this.logger.warn(`delivery round failed, retrying: ${(err as Error).message}`);
    }
    if (!this.stopped) {
      this.timer = setTimeout(() => this.nudge(), delay);
      this.timer.unref();
    }
  }
}
