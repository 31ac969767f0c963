import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@igw/kernel';
import { hashApiKey } from '../api-key-secrets';
import { newApiKey } from '../new-api-key';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../ports/gateway-settings';
import { API_KEY_REPOSITORY, ORG_REPOSITORY, type ApiKeyRepository, type OrgRepository } from '../ports/org.repository.port';
import { CreateOrgUseCase } from './create-org.use-case';

export interface BootstrapResult {
  /** Set only when a key was generated now: the caller prints it once. */
  generatedKey?: string;
  orgId?: string;
}

/**
 * First start: with no org yet, create org `default` with one admin key — BOOTSTRAP_ADMIN_KEY
 * when set, otherwise a generated one (embedded mode only; it is printed once). A
 * BOOTSTRAP_ADMIN_KEY added later is honoured by adding it to `default`.
 */
@Injectable()
export class BootstrapOrgUseCase {
  constructor(
    @Inject(ORG_REPOSITORY) private readonly orgs: OrgRepository,
    @Inject(API_KEY_REPOSITORY) private readonly keys: ApiKeyRepository,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly createOrg: CreateOrgUseCase,
  ) {}

  async execute(): Promise<BootstrapResult> {
    const given = this.settings.bootstrapAdminKey;
    const existing = await this.orgs.findByName('default');
    if (!existing && (await this.orgs.count()) === 0) {
      if (!given && this.settings.mode !== 'embedded') return {};
      const created = await this.createOrg.execute({ name: 'default', adminKey: given });
      return { orgId: created.org.id, generatedKey: given ? undefined : created.api_key.key };
    }
    if (given && existing && !(await this.keys.findByHash(hashApiKey(given)))) {
      const { key, created } = newApiKey(existing.id, 'bootstrap-admin', 'admin', given, this.clock.now());
      await this.keys.create(key, [created]);
    }
    return { orgId: existing?.id };
  }
}
