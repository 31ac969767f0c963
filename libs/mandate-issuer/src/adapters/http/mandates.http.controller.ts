import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DispensedMandateDto, DispenseMandateDto, JwksDto, MandateViewDto, RefreshMandateDto, RevokedMandateDto, RevokeMandateDto } from '@igw/contracts';
import { ApiErrors, CurrentCaller, Public, RequireScope } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { DispenseMandateUseCase } from '../../application/use-cases/dispense-mandate.use-case';
import { InspectMandateUseCase } from '../../application/use-cases/inspect-mandate.use-case';
import { RefreshMandateUseCase } from '../../application/use-cases/refresh-mandate.use-case';
import { RevokeMandateUseCase } from '../../application/use-cases/revoke-mandate.use-case';
import { KeyRing } from '../../application/signing/key-ring';

/** DESIGN 6.8: mandates are dispensed, refreshed and revoked with policy_write; read with any key; the JWKS with none. */
@ApiTags('mandates')
@Controller('v1/mandate')
export class MandatesHttpController {
  constructor(
    private readonly dispenseMandate: DispenseMandateUseCase,
    private readonly refreshMandate: RefreshMandateUseCase,
    private readonly revokeMandate: RevokeMandateUseCase,
    private readonly inspectMandate: InspectMandateUseCase,
    private readonly keys: KeyRing,
  ) {}

  @Post('dispense')
  @HttpCode(200)
  @RequireScope('policy_write')
  @ApiOperation({ summary: 'Mint a mandate (RS256, typ mandate+jwt) for an intent card of the org, optionally through a credential broker.' })
  @ApiResponse({ status: 200, type: DispensedMandateDto })
  @ApiErrors({
    400: 'invalid_request',
    403: 'mandate_violation (with suggested_scope), insufficient_scope',
    404: 'intent_not_found',
    500: 'signing_failed',
    502: 'broker_failed',
  })
  dispense(@CurrentCaller() caller: Caller, @Body() body: DispenseMandateDto): Promise<DispensedMandateDto> {
    return this.dispenseMandate.execute(caller, body);
  }

  @Post('refresh')
  @HttpCode(200)
  @RequireScope('policy_write')
  @ApiOperation({ summary: 'A new credential with the same cred_id and a later exp (TTL clamp, 24 h lifetime cap, one refresh per 10 s).' })
  @ApiResponse({ status: 200, type: DispensedMandateDto })
  @ApiErrors({ 403: 'scope_outside_intent', 409: 'mandate_expired, mandate_revoked', 429: 'cooldown (Retry-After)' })
  refresh(@CurrentCaller() caller: Caller, @Body() body: RefreshMandateDto) {
    return this.refreshMandate.execute(caller, body);
  }

  @Post('revoke')
  @HttpCode(200)
  @RequireScope('policy_write')
  @ApiOperation({ summary: 'Revoke a mandate (idempotent) and the credential its broker minted.' })
  @ApiResponse({ status: 200, type: RevokedMandateDto })
  @ApiErrors({ 404: 'not_found' })
  revoke(@CurrentCaller() caller: Caller, @Body() body: RevokeMandateDto): Promise<RevokedMandateDto> {
    return this.revokeMandate.execute(caller, body);
  }

  @Get('jwks')
  @Public()
  @ApiOperation({ summary: 'Public keys that verify mandates (no authentication). Cache-Control: public, max-age=60; ETag.' })
  @ApiHeader({ name: 'If-None-Match', required: false })
  @ApiResponse({ status: 200, type: JwksDto })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the ETag).' })
  jwks(@Headers('if-none-match') ifNoneMatch: string | undefined, @Res() reply: FastifyReply): void {
    const { body, etag } = this.keys.jwks();
    void reply.header('cache-control', 'public, max-age=60').header('etag', etag);
    const tags = (ifNoneMatch ?? '').split(',').map((t) => t.trim().replace(/^W\//, ''));
    if (tags.includes(etag) || tags.includes('*')) {
      void reply.status(304).send();
      return;
    }
    void reply.status(200).send(body);
  }

  @Get(':cred_id')
  @ApiOperation({ summary: 'Inspect a mandate of the org (never the credential itself).' })
  @ApiResponse({ status: 200, type: MandateViewDto })
  @ApiErrors({ 404: 'not_found' })
  inspect(@CurrentCaller() caller: Caller, @Param('cred_id') credId: string): Promise<MandateViewDto> {
    return this.inspectMandate.execute(caller, credId);
  }
}
