import { KeyEncryption, resolveKek, StartupError } from '@igw/runtime';
import { parseRetrySchedule } from './domain/retry-schedule';
import type { WebhookDispatcherConfig } from './webhook-dispatcher.config';
import type { WebhookDispatcherModuleOptions } from './webhook-dispatcher.module';

export type WebhookDispatcherSettings = Pick<WebhookDispatcherModuleOptions, 'sealer' | 'allowPrivate' | 'consumerGroup' | 'timeoutMs' | 'retryScheduleS'>;

/** The module options that come from configuration: built here once for the embedded and the service root. */
export function webhookDispatcherSettings(config: WebhookDispatcherConfig): WebhookDispatcherSettings {
  const kek = resolveKek('WEBHOOK_KEK', config.WEBHOOK_KEK, config, 'webhook-kek');
  let retryScheduleS: number[] | undefined;
  try {
    retryScheduleS = config.WEBHOOK_RETRY_SCHEDULE ? parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE) : undefined;
  } catch (err) {
    throw new StartupError(`WEBHOOK_RETRY_SCHEDULE: ${(err as Error).message}`);
  }
  return {
    sealer: new KeyEncryption(kek),
    allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE === 'true',
    ...(config.WEBHOOK_CONSUMER_GROUP ? { consumerGroup: config.WEBHOOK_CONSUMER_GROUP } : {}),
    ...(config.WEBHOOK_TIMEOUT_MS !== undefined ? { timeoutMs: config.WEBHOOK_TIMEOUT_MS } : {}),
    ...(retryScheduleS ? { retryScheduleS } : {}),
  };
}
