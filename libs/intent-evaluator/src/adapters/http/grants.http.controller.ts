import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorDto, VerifyGrantRequestDto, VerifyGrantResponseDto } from '@igw/contracts';
import { CurrentCaller } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { VerifyGrantUseCase } from '../../application/use-cases/verify-grant.use-case';

@ApiTags('grants')
@Controller('v1/grants')
export class GrantsHttpController {
  constructor(private readonly verifyGrant: VerifyGrantUseCase) {}

  @Post('verify')
  @HttpCode(200)
  @ApiOperation({
    summary: "Verify a grant for the caller's org (and, given `tool_call`, for that call): `{valid: true, grant}` or `{valid: false, reason}`.",
    description:
      'A grant carries a `call` claim: the SHA-256 (lowercase hex) of `{"args":<canonical JSON of the arguments, {} when absent>,"tool":<tool name>,"v":1}`. ' +
      'With `tool_call`, a grant issued for another tool name or other arguments answers `{valid: false, reason: "other_call"}`. ' +
      'A token whose segments are not canonical base64url (padding, stray characters) is `malformed`.',
  })
  @ApiResponse({ status: 200, type: VerifyGrantResponseDto })
  @ApiResponse({ status: 400, type: ErrorDto, description: 'invalid_request (no token, a malformed tool_call)' })
  verify(@CurrentCaller() caller: Caller, @Body() body: VerifyGrantRequestDto): Promise<VerifyGrantResponseDto> {
    return this.verifyGrant.execute(caller, body);
  }
}
