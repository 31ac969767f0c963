import { Inject, Injectable, Logger } from '@nestjs/common';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { CLOCK, type Clock } from '@igw/kernel';
import { afterAttempt, signingSecrets, type AttemptResult } from '../../domain';
import { DELIVERY_REPOSITORY, type ClaimedDelivery, type DeliveryRepository } from '../ports/webhook.repository.port';
import { WEBHOOK_SENDER, type WebhookSender } from '../ports/webhook-sender.port';
import { openSecret, SECRET_SEALER, type SecretSealer } from '../webhook-secrets';

export const DELIVERY_SETTINGS = Symbol('DELIVERY_SETTINGS');
export interface DeliverySettings {
  /** Seconds between attempts (DESIGN 6.11 by default). */
  retryScheduleS: readonly number[];
  /** Deliveries taken per round. */
  batch: number;
  /** Attempts in flight at most (a round takes only what fits). */
  maxInFlight?: number;
  /** How long a taken delivery is reserved for this worker (longer than the send timeout). */
  leaseMs: number;
}

/**
 * One round of the delivery worker: takes due deliveries, signs each (Standard Webhooks 1.0 with
 * the `standardwebhooks` library: `webhook-id` = the event id, the same on every attempt,
 * `webhook-timestamp` = now, `webhook-signature` = one `v1,` entry per secret that still signs),
 * sends them concurrently and stores each outcome with its next attempt. Returns how many it took.
 * A failed attempt is logged as structured fields (delivery, webhook and org ids, status, attempt).
 */
@Injectable()
export class DeliverDueUseCase {
  private readonly logger = new Logger('WebhookDelivery');

  constructor(
    @Inject(DELIVERY_REPOSITORY) private readonly deliveries: DeliveryRepository,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    @Inject(SECRET_SEALER) private readonly sealer: SecretSealer,
    @Inject(DELIVERY_SETTINGS) private readonly settings: DeliverySettings,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private readonly inFlight = new Set<Promise<void>>();
  /** Called whenever an attempt finishes, with how many are still in flight (the worker decides when to take more). */
  onSettled: ((inFlight: number) => void) | null = null;

  /**
   * Takes what is due (up to the batch, and up to the room left under `maxInFlight`) and starts
   * the attempts. `wait: false` returns as soon as they are started, so one slow receiver never
   * holds up the deliveries of others; by default the round's attempts are awaited.
   */
  async execute(options: { wait?: boolean } = {}): Promise<number> {
    const room = (this.settings.maxInFlight ?? Number.POSITIVE_INFINITY) - this.inFlight.size;
    if (room <= 0) return 0;
    const claimed = await this.deliveries.claimDue(Math.min(this.settings.batch, room), this.settings.leaseMs, this.clock.now());
    const started = claimed.map((c) => {
      const run: Promise<void> = this.attempt(c)
        .catch((err: Error) =>
          this.logger.warn({
            msg: 'webhook attempt not recorded; its lease runs out and it is tried again',
            delivery_id: c.delivery.id,
            webhook_id: c.webhook.id,
            org_id: c.delivery.orgId,
            err: err.message,
          }),
        )
        .finally(() => {
          this.inFlight.delete(run);
          this.onSettled?.(this.inFlight.size);
        });
      this.inFlight.add(run);
      return run;
    });
    if (options.wait !== false) await Promise.all(started);
    return claimed.length;
  }

  /** Resolves once no attempt is in flight (shutdown). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async attempt({ delivery, webhook }: ClaimedDelivery): Promise<void> {
    if (webhook.status !== 'active') return this.deliveries.cancel(delivery.id);
    const sentAt = this.clock.now();
    let result: AttemptResult;
    try {
      const signature = signingSecrets(webhook, sentAt)
        .map((s) => new StandardWebhook(openSecret(this.sealer, webhook.id, s)).sign(delivery.eventId, sentAt, delivery.body))
        .join(' ');
      if (signature === '') throw new Error('the webhook has no signing secret');
      result = await this.sender.send({
        url: webhook.url,
        headers: { 'webhook-id': delivery.eventId, 'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)), 'webhook-signature': signature },
        body: delivery.body,
      });
    } catch (err) {
      // A secret that cannot be opened (wrong KEK) is a failed attempt, retried on schedule; never sent unsigned.
      result = { status: null, error: `not sent: ${(err as Error).message}` };
    }
    const outcome = afterAttempt(delivery.attempts, result, this.settings.retryScheduleS, this.clock.now());
    if (outcome.status !== 'succeeded')
      this.logger.warn({
        msg: 'webhook attempt failed',
        delivery_id: delivery.id,
        webhook_id: webhook.id,
        org_id: delivery.orgId,
        attempt: outcome.attempts,
        status: outcome.status,
        code: outcome.lastResponseCode,
        error: outcome.lastError,
      });
    await this.deliveries.recordAttempt(delivery, outcome, this.clock.now());
  }
}
