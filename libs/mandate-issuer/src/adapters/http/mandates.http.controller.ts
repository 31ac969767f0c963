import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiHeader, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  DispensedMandateDto,
  DispenseMandateDto,
  ErrorDto,
  JwksDto,
  MandateViewDto,
  MandateViolationErrorDto,
  RefreshedMandateDto,
  RefreshMandateDto,
  RevokedMandateDto,
  RevokeMandateDto,
} from '@igw/contracts';
import { ApiErrors, ApiJsonBody, ApiOp, CurrentCaller, Public, RequireScope } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { DispenseMandateUseCase } from '../../application/use-cases/dispense-mandate.use-case';
import { InspectMandateUseCase } from '../../application/use-cases/inspect-mandate.use-case';
import { RefreshMandateUseCase } from '../../application/use-cases/refresh-mandate.use-case';
import { RevokeMandateUseCase } from '../../application/use-cases/revoke-mandate.use-case';
import { KeyRing } from '../../application/signing/key-ring';
import {
  DISPENSE_MANDATE_EXAMPLES,
  DISPENSED_MANDATE_EXAMPLES,
  JWKS_EXAMPLE,
  MANDATE_VIEW_EXAMPLE,
  MANDATE_VIOLATION_EXAMPLE,
  REFRESH_MANDATE_EXAMPLES,
  REFRESHED_MANDATE_EXAMPLE,
  REVOKE_MANDATE_EXAMPLES,
  REVOKED_MANDATE_EXAMPLES,
  SCOPE_OUTSIDE_INTENT_EXAMPLE,
} from './mandates.examples';

const SIGNING_FAILED = { code: 'signing_failed', message: 'the mandate could not be signed: the signing-key store is unusable' };

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
  @ApiOp({
    id: 'dispenseMandate',
    summary: 'Dispense a signed mandate for an intent card of the org.',
    description:
      'Mints a mandate (RS256 JWT, typ `mandate+jwt`, verifiable with `GET /v1/mandate/jwks`) binding `actor` to the card, a scope and an audience; present it in `X-Service-Mandate` to `POST /v1/mcp-proxy/call`. ' +
      'In `requested_scope` only `operations` is required (at least one pattern); `resources` and `forbidden_operations` default to `[]` (a mandate with no resources can touch none). ' +
      "`requested_scope` must lie inside the card's `allowed_scope` and `audience` be one of its audiences, else 403 `mandate_violation` with `suggested_scope` (the largest part the card allows) and `details` (one per offending item). " +
      "The granted scope always keeps the card's `forbidden_operations`. `ttl_seconds` (default 300) is clamped to min(3600, the card's `max_ttl_seconds`). " +
      'With `broker_dispense`, the mandate is exchanged at that credential broker and its token is returned once in `broker_dispense.result`; when the broker fails the mandate is recorded as revoked and never returned (502). ' +
      'Not idempotent: each call mints a new `cred_id`. Needs policy_write.',
  })
  @ApiJsonBody(DispenseMandateDto, DISPENSE_MANDATE_EXAMPLES)
  @ApiResponse({
    status: 200,
    type: DispensedMandateDto,
    description: 'The new mandate (shown once) and its effective TTL.',
    examples: DISPENSED_MANDATE_EXAMPLES,
  })
  @ApiResponse({
    status: 403,
    type: MandateViolationErrorDto,
    description: '`mandate_violation`: the requested scope or audience goes beyond the intent card (`suggested_scope` and `details` say what it allows).',
    examples: {
      mandate_violation: { summary: 'Beyond the intent card', value: MANDATE_VIOLATION_EXAMPLE },
    },
  })
  @ApiErrors({
    400: [
      { code: 'invalid_request', message: 'requested_scope.operations is required' },
      { code: 'invalid_request', message: 'requested_scope.operations must name at least one pattern' },
      { code: 'invalid_request', message: 'ttl_seconds must be a positive integer' },
      { code: 'invalid_request', message: 'broker_dispense.kind vault is not configured on this gateway (configured: none)' },
    ],
    404: { code: 'intent_not_found', message: 'intent card crm-assistant not found' },
    500: SIGNING_FAILED,
    502: [
      { code: 'broker_failed', message: 'vault rejected the login (HTTP 403)' },
      { code: 'broker_failed', message: 'vault is unreachable for the login (ECONNREFUSED)' },
      { code: 'broker_failed', message: 'conjur gave no answer to the authentication within 5000 ms' },
    ],
  })
  dispense(@CurrentCaller() caller: Caller, @Body() body: DispenseMandateDto): Promise<DispensedMandateDto> {
    return this.dispenseMandate.execute(caller, body);
  }

  @Post('refresh')
  @HttpCode(200)
  @RequireScope('policy_write')
  @ApiOp({
    id: 'refreshMandate',
    summary: 'Refresh a mandate: a new credential with the same cred_id and a later expiry.',
    description:
      "The mandate is checked against its intent card as the card is now: a scope or audience the card no longer allows is 403 `scope_outside_intent`, and the card's current `forbidden_operations` are added. " +
      "The new expiry is now + `ttl_seconds` (default 300, clamped to min(3600, the card's `max_ttl_seconds`)), never more than 24 h after the first issue and never earlier than the current expiry; the previous credential stays valid until its own expiry. " +
      'At most one refresh per mandate every 10 s (429 `cooldown` with Retry-After). A revoked or expired mandate cannot be refreshed: dispense a new one. Needs policy_write.',
  })
  @ApiJsonBody(RefreshMandateDto, REFRESH_MANDATE_EXAMPLES)
  @ApiResponse({
    status: 200,
    type: RefreshedMandateDto,
    description: 'The new credential (shown once), its expiry and the refresh count.',
    example: REFRESHED_MANDATE_EXAMPLE,
  })
  @ApiResponse({
    status: 403,
    type: MandateViolationErrorDto,
    description: "`scope_outside_intent`: the intent card no longer allows the mandate's scope (with `suggested_scope` and `details`) or its audience.",
    examples: {
      scope_outside_intent: { summary: 'The card was narrowed since dispense', value: SCOPE_OUTSIDE_INTENT_EXAMPLE },
      scope_outside_intent_audience: {
        summary: 'The card dropped the audience',
        value: { code: 'scope_outside_intent', message: 'the mandate\'s audience "crm-api" is no longer one of the intent card\'s audiences' },
      },
    },
  })
  @ApiResponse({
    status: 429,
    type: ErrorDto,
    description: '`cooldown`: the mandate was refreshed less than 10 s ago. Retry-After says when to retry.',
    examples: {
      cooldown: {
        summary: 'Refreshed less than 10 s ago',
        value: { code: 'cooldown', message: 'a mandate may be refreshed at most once every 10 seconds; retry in 7 s' },
      },
    },
  })
  @ApiErrors({
    400: { code: 'invalid_request', message: 'cred_id is required' },
    404: [
      { code: 'not_found', message: 'mandate not found' },
      { code: 'intent_not_found', message: 'intent card crm-assistant not found' },
    ],
    409: [
      { code: 'mandate_revoked', message: 'the mandate is revoked and cannot be refreshed' },
      { code: 'mandate_expired', message: 'the mandate has expired and cannot be refreshed; dispense a new one' },
      { code: 'mandate_changed', message: 'the mandate changed while it was being refreshed; retry' },
    ],
    500: SIGNING_FAILED,
  })
  refresh(@CurrentCaller() caller: Caller, @Body() body: RefreshMandateDto): Promise<RefreshedMandateDto> {
    return this.refreshMandate.execute(caller, body);
  }

  @Post('revoke')
  @HttpCode(200)
  @RequireScope('policy_write')
  @ApiOp({
    id: 'revokeMandate',
    summary: 'Revoke a mandate, and the credential its broker minted.',
    description:
      'The revocation is committed, and known to every verifier, before the answer: the decision proxy refuses the mandate from then on. An expired mandate can be revoked too (its broker token may outlive it). ' +
      'Idempotent: revoking again answers the same `revoked_at`. When the mandate had a broker credential, `broker_revocation` says what the broker did; `failed` means it could not be reached, and each later revoke call tries again. Needs policy_write.',
  })
  @ApiJsonBody(RevokeMandateDto, REVOKE_MANDATE_EXAMPLES)
  @ApiResponse({ status: 200, type: RevokedMandateDto, description: 'The mandate, revoked.', examples: REVOKED_MANDATE_EXAMPLES })
  @ApiErrors({
    400: { code: 'invalid_request', message: 'cred_id is required' },
    404: { code: 'not_found', message: 'mandate not found' },
  })
  revoke(@CurrentCaller() caller: Caller, @Body() body: RevokeMandateDto): Promise<RevokedMandateDto> {
    return this.revokeMandate.execute(caller, body);
  }

  @Get('jwks')
  @Public()
  @ApiOp({
    id: 'getMandateJwks',
    summary: 'The public keys that verify mandates (no authentication).',
    description:
      "A JWK Set of the RS256 keys whose mandates may still be presented: a key is published before it signs and stays published until the last mandate it signed has expired; pick the key by the mandate's `kid`. " +
      'Cache-Control: public, max-age=60, with an ETag: send it back in If-None-Match to get 304 when nothing changed.',
  })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of a JWK Set already held.' })
  @ApiResponse({
    status: 200,
    type: JwksDto,
    description: 'The published keys.',
    headers: {
      ETag: { description: 'A tag of this key set.', schema: { type: 'string', example: '"k3QxN0b6yT1mW9fZ2cV8pR4sL7a"' } },
      'Cache-Control': { description: 'public, max-age=60', schema: { type: 'string', example: 'public, max-age=60' } },
    },
    example: JWKS_EXAMPLE,
  })
  @ApiResponse({
    status: 304,
    description: 'Not modified: If-None-Match named the current ETag (or `*`); no body.',
    headers: { ETag: { description: 'The current tag.', schema: { type: 'string' } } },
  })
  @ApiErrors({
    // The edge refuses a malformed query string on every route, this one included.
    400: { code: 'invalid_request', message: 'v is not valid percent-encoded UTF-8' },
    503: { code: 'unavailable', message: 'signing-key store is unavailable; retry later' },
  })
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
  @ApiOp({
    id: 'inspectMandate',
    summary: 'Inspect a mandate of the org (never the credential itself).',
    description:
      "`status` is as of now: `revoked` wins over `expired`. `broker` describes the broker credential without its secret. Another org's cred_id is a 404, as an unknown one is. Any API key may read.",
  })
  @ApiResponse({ status: 200, type: MandateViewDto, description: 'The mandate record.', example: MANDATE_VIEW_EXAMPLE })
  @ApiErrors({ 404: { code: 'not_found', message: 'mandate not found' } })
  inspect(@CurrentCaller() caller: Caller, @Param('cred_id') credId: string): Promise<MandateViewDto> {
    return this.inspectMandate.execute(caller, credId);
  }
}
