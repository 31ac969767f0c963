import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, newId, type Clock } from '@igw/kernel';
import { Topics, type CreatedOrgDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { displayPrefix } from '../../domain/api-key';
import type { RateLimitPolicy } from '../../domain/rate-limit';
import { generateApiKey, hashApiKey } from '../api-key-secrets';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../ports/gateway-settings';
import { ORG_REPOSITORY, type NewApiKey, type OrgRecord, type OrgRepository } from '../ports/org.repository.port';
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
    const key: NewApiKey = {
      id: newId('key'),
      orgId: org.id,
      name: 'admin',
      scope: 'admin',
      prefix: displayPrefix(secret),
      hash: hashApiKey(secret),
      createdAt: now,
      revokedAt: null,
    };
    await this.orgs.createWithAdminKey(org, key, [
      envelope(Topics.OrgCreated, org.id, { id: org.id, name: org.name, created_at: now.toISOString() }, now),
      envelope(Topics.ApiKeyCreated, org.id, { id: key.id, name: key.name, scope: key.scope, created_at: now.toISOString() }, now),
    ]);
    return { org: toOrgDto(org, this.settings.defaultRateLimit), api_key: { ...toApiKeyDto(key), key: secret } };
  }
}
