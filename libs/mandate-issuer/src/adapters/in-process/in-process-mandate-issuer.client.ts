import { Injectable } from '@nestjs/common';
import type { MandateIssuerApi, OrgIdsDto, RevocationsDto } from '@igw/contracts';
import { RevocationsSinceUseCase } from '../../application/use-cases/revocations-since.use-case';

/**
 * Embedded mode: verifiers read the issuer's revocations through its use case in the same process
 * (provided and exported under MANDATE_ISSUER_API). Distributed mode uses the internal HTTP route.
 */
@Injectable()
export class InProcessMandateIssuerClient implements MandateIssuerApi {
  constructor(private readonly revocations: RevocationsSinceUseCase) {}

  revocationsSince(orgId: string, afterVersion: number): Promise<RevocationsDto> {
    return this.revocations.execute(orgId, afterVersion);
  }

  orgsWithRevocations(): Promise<OrgIdsDto> {
    return this.revocations.orgs();
  }
}
