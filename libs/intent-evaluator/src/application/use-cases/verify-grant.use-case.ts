import { Inject, Injectable } from '@nestjs/common';
import type { VerifyGrantRequestDto, VerifyGrantResponseDto } from '@igw/contracts';
import type { Caller } from '@igw/kernel';
import { checkGrantCall } from '../../domain/grants/grant';
import { grantCallHash } from '../grants/call-hash';
import { GRANT_VERIFIER, type GrantVerifier } from '../grants/grant.port';

/**
 * `POST /v1/grants/verify` (DESIGN 6.5): whether a grant is valid for the caller's org and, when
 * `tool_call` is given, for that very call (`other_call` otherwise). Every way a token can be
 * wrong is a 200 `{valid: false, reason}`; a mandate is never a valid grant.
 */
@Injectable()
export class VerifyGrantUseCase {
  constructor(@Inject(GRANT_VERIFIER) private readonly verifier: GrantVerifier) {}

  async execute(caller: Caller, request: VerifyGrantRequestDto): Promise<VerifyGrantResponseDto> {
    // Hashed first: arguments nested too deep are a 400 whatever the token.
    const call = request.tool_call ? grantCallHash({ toolName: request.tool_call.name, arguments: request.tool_call.arguments }) : null;
    const verified = await this.verifier.verify(request.token, caller.orgId);
    const result = call !== null ? checkGrantCall(verified, call) : verified;
    if (!result.valid) return { valid: false, reason: result.reason };
    const g = result.grant;
    return {
      valid: true,
      grant: {
        data_elements: g.dataElements,
        intent_label: g.intentLabel,
        intent_event_id: g.intentEventId,
        user_id: g.userId,
        expires_at: g.expiresAt.toISOString(),
      },
    };
  }
}
