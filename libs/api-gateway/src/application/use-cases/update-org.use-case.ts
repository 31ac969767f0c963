import { Inject, Injectable } from '@nestjs/common';
import { notFound, invalidRequest } from '@igw/kernel';
import type { OrgDto } from '@igw/contracts';
import type { RateLimitPolicy } from '../../domain/rate-limit';
import { AUTH_EPOCH, type AuthEpoch } from '../ports/auth-epoch.port';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../ports/gateway-settings';
import { ORG_REPOSITORY, type OrgRepository } from '../ports/org.repository.port';
import { toOrgDto } from './views';

/** Sets (or, with null, resets) an org's per-key rate limit; every replica applies it next request. */
@Injectable()
export class UpdateOrgUseCase {
  constructor(
    @Inject(ORG_REPOSITORY) private readonly orgs: OrgRepository,
    @Inject(AUTH_EPOCH) private readonly epoch: AuthEpoch,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  async execute(id: string, rateLimit: RateLimitPolicy | null): Promise<OrgDto> {
    if (rateLimit && rateLimit.burst < rateLimit.requestsPerSecond) {
      throw invalidRequest('rate_limit.burst must be at least rate_limit.requests_per_second', [
        { path: 'rate_limit.burst', message: 'must be at least requests_per_second' },
      ]);
    }
    const org = await this.orgs.updateRateLimit(id, rateLimit);
    if (!org) throw notFound('org');
    await this.epoch.bump();
    return toOrgDto(org, this.settings.defaultRateLimit);
  }
}
