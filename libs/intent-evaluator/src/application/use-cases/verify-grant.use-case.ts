import { Inject, Injectable } from '@nestjs/common';
import type { VerifyGrantResponseDto } from '@igw/contracts';
import type { Caller } from '@igw/kernel';
import { GRANT_VERIFIER, type GrantVerifier } from '../grants/grant.port';

/**
 * `POST /v1/grants/verify` (DESIGN 6.5): whether a grant is valid for the caller's org. Every way
 * a token can be wrong is a 200 `{valid: false, reason}`; a mandate is never a valid grant.
 */
@Injectable()
export class VerifyGrantUseCase {
  constructor(@Inject(GRANT_VERIFIER) private readonly verifier: GrantVerifier) {}

  async execute(caller: Caller, token: string): Promise<VerifyGrantResponseDto> {
    const result = await this.verifier.verify(token, caller.orgId);
    if (!result.valid) return { valid: false, reason: result.reason };
    const g = result.grant;
    return {
      valid: true,
      grant: { data_elements: g.dataElements, intent_label: g.intentLabel, intent_event_id: g.intentEventId, user_id: g.userId, expires_at: g.expiresAt.toISOString() },
    };
  }
}
