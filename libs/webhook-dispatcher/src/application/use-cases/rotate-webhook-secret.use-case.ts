import { Inject, Injectable } from '@nestjs/common';
import type { RotatedWebhookSecretDto } from '@igw/contracts';
import { CLOCK, notFound, type Caller, type Clock } from '@igw/kernel';
import { rotateSecrets, ROTATION_OVERLAP_MS } from '../../domain';
import { WEBHOOK_REPOSITORY, type WebhookRepository } from '../ports/webhook.repository.port';
import { newSecret, SECRET_SEALER, type SecretSealer } from '../webhook-secrets';

/** `POST /v1/webhooks/{id}/rotate-secret`: a new secret (shown once); the previous ones sign for 24 h more. */
@Injectable()
export class RotateWebhookSecretUseCase {
  constructor(
    @Inject(WEBHOOK_REPOSITORY) private readonly webhooks: WebhookRepository,
    @Inject(SECRET_SEALER) private readonly sealer: SecretSealer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, id: string): Promise<RotatedWebhookSecretDto> {
    const now = this.clock.now();
    const secret = newSecret(this.sealer, id);
    const updated = await this.webhooks.updateSecrets(caller.orgId, id, (current) => rotateSecrets(current, secret.stored, now), now);
    if (!updated) throw notFound('webhook');
    return { id, secret: secret.plain, previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString() };
  }
}
