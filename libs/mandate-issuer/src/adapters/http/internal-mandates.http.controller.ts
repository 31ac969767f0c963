import { Controller, Get, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { OrgIdsDto, RevocationsDto } from '@igw/contracts';
import { CurrentCaller } from '@igw/http';
import { invalidRequest, type Caller } from '@igw/kernel';
import { RevocationsSinceUseCase } from '../../application/use-cases/revocations-since.use-case';

/** `after` as the query string carries it: digits only, once, within the safe integers. */
export function parseAfterVersion(value: unknown): number {
  const message = 'after must be a non-negative integer';
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) throw invalidRequest(message, [{ path: 'after', message }]);
  return Number(value);
}

/**
 * Service-to-service routes of distributed mode (the decision proxy catches up on revocations
 * here; the gateway never forwards `/internal/*`). The caller is resolved from the internal token
 * headers like every route of the app and only ever reads its own org; read_only is enough. Not
 * part of the public OpenAPI document.
 */
@ApiExcludeController()
@Controller('internal/mandates')
export class InternalMandatesHttpController {
  constructor(private readonly revocationsSince: RevocationsSinceUseCase) {}

  /** The caller's org's revocations numbered above `after` and its current counter; 400 `invalid_request` for a bad `after`. */
  @Get('revocations')
  revocations(@CurrentCaller() caller: Caller, @Query('after') after: unknown): Promise<RevocationsDto> {
    return this.revocationsSince.execute(caller.orgId, parseAfterVersion(after));
  }

  /** The orgs that ever revoked a mandate (org ids only, so the caller's org plays no part): a verifier's warm start. */
  @Get('revocation-orgs')
  revocationOrgs(): Promise<OrgIdsDto> {
    return this.revocationsSince.orgs();
  }
}
