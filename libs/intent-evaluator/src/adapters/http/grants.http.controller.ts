import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorDto, VerifyGrantRequestDto, VerifyGrantResponseDto } from '@igw/contracts';
import { CurrentCaller } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { VerifyGrantUseCase } from '../../application/use-cases/verify-grant.use-case';

@ApiTags('grants')
@ApiBearerAuth()
@Controller('v1/grants')
export class GrantsHttpController {
  constructor(private readonly verifyGrant: VerifyGrantUseCase) {}

  @Post('verify')
  @HttpCode(200)
  @ApiOperation({ summary: "Verify a grant for the caller's org: `{valid: true, grant}` or `{valid: false, reason}`." })
  @ApiResponse({ status: 200, type: VerifyGrantResponseDto })
  @ApiResponse({ status: 400, type: ErrorDto, description: 'invalid_request (no token)' })
  verify(@CurrentCaller() caller: Caller, @Body() body: VerifyGrantRequestDto): Promise<VerifyGrantResponseDto> {
    return this.verifyGrant.execute(caller, body.token);
  }
}
