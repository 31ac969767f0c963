import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { VerifyGrantRequestDto, VerifyGrantResponseDto } from '@igw/contracts';
import { ApiErrors, ApiJsonBody, ApiOp, CurrentCaller } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { VerifyGrantUseCase } from '../../application/use-cases/verify-grant.use-case';
import { VERIFY_GRANT_REQUEST_EXAMPLES, VERIFY_GRANT_RESPONSE_EXAMPLES } from './grants.examples';

@ApiTags('grants')
@Controller('v1/grants')
export class GrantsHttpController {
  constructor(private readonly verifyGrant: VerifyGrantUseCase) {}

  @Post('verify')
  @HttpCode(200)
  @ApiOp({
    id: 'verifyGrant',
    summary: "Verify a grant for the caller's org (and, given `tool_call`, for that call).",
    description:
      'Answers `{valid: true, grant}` with what the grant attests, or `{valid: false, reason}`: every way a token can be wrong is a 200, never an error. ' +
      "`other_org`: issued to another org than the caller's; `expired`; `bad_signature`; `malformed`; `wrong_type`: not a grant (a mandate never is one). " +
      'A grant carries a `call` claim: the SHA-256 (lowercase hex) of `{"args":<canonical JSON of the arguments, {} when absent>,"tool":<tool name>,"v":1}`. ' +
      'With `tool_call`, a grant issued for another tool name or other arguments answers `{valid: false, reason: "other_call"}`. ' +
      'A token whose segments are not canonical base64url (padding, stray characters) is `malformed`. Any API key of the org may verify; nothing is recorded.',
  })
  @ApiJsonBody(VerifyGrantRequestDto, VERIFY_GRANT_REQUEST_EXAMPLES)
  @ApiResponse({
    status: 200,
    type: VerifyGrantResponseDto,
    description: 'Whether the grant is valid, and what it attests when it is.',
    examples: VERIFY_GRANT_RESPONSE_EXAMPLES,
  })
  @ApiErrors({
    400: [
      { code: 'invalid_request', message: 'token is required' },
      { code: 'invalid_request', message: 'tool_call must be an object' },
      { code: 'invalid_request', message: 'tool_call.arguments must not nest deeper than 64 levels' },
    ],
  })
  verify(@CurrentCaller() caller: Caller, @Body() body: VerifyGrantRequestDto): Promise<VerifyGrantResponseDto> {
    return this.verifyGrant.execute(caller, body);
  }
}
