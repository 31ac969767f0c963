import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, newId, type Clock } from '@igw/kernel';
import { Topics, type CreatedOrgDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import type { RateLimitPolicy } from '../../domain/rate-limit';
import { generateApiKey } from '../api-key-secrets';
import { newApiKey } from '../new-api-key';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../ports/gateway-settings';
import { ORG_REPOSITORY, type OrgRecord, type OrgRepository } from '../ports/org.repository.port';
import { toApiKeyDto, toOrgDto } from './views';

export interface CreateOrgInput {
  name: string;
  rateLimit?: RateLimitPolicy;
  /** A key from the environment (BOOTSTRAP_ADMIN_KEY); generated when absent. */
  adminKey?: string;
}

/** Creates an org with one admin key, shown once (POST /v1/orgs, and the embedded first run). */
@Injectable()
export class CreateOrgUseCase {
  constructor(
    @Inject(ORG_REPOSITORY) private readonly orgs: OrgRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  async execute(input: CreateOrgInput): Promise<CreatedOrgDto> {
    const now = this.clock.now();
    const org: OrgRecord = { id: newId('org'), name: input.name, rateLimit: input.rateLimit ?? null, createdAt: now };
    const secret = input.adminKey ?? generateApiKey();
    const orgCreated = envelope(Topics.OrgCreated, org.id, { id: org.id, name: org.name, created_at: now.toISOString() }, now);
    const { key, created } = newApiKey(org.id, 'admin', 'admin', secret, now);
    await this.orgs.createWithAdminKey(org, key, [orgCreated, created]);
    return { org: toOrgDto(org, this.settings.defaultRateLimit), api_key: { ...toApiKeyDto(key), key: secret } };
  }
}
