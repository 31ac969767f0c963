import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApprovalDto, ConsumeApprovalDto, CreateApprovalRequestDto } from '@igw/contracts';
import { CurrentCaller } from '@igw/http';
import { AppError, type Caller } from '@igw/kernel';
import { ConsumeApprovalUseCase } from '../../application/use-cases/consume-approval.use-case';
import { CreateApprovalUseCase } from '../../application/use-cases/create-approval.use-case';

/**
 * Service-to-service routes of distributed mode (the evaluator and the decision proxy reach
 * approvals here; the gateway never forwards `/internal/*`). The caller is resolved from the
 * internal token headers like every route of the app; it is the agent's key, so read_only is enough.
 * Not part of the public OpenAPI document.
 */
@ApiExcludeController()
@Controller('internal/approvals')
export class InternalApprovalsHttpController {
  constructor(
    private readonly createApproval: CreateApprovalUseCase,
    private readonly consumeApproval: ConsumeApprovalUseCase,
  ) {}

  @Post()
  create(@CurrentCaller() caller: Caller, @Body() body: CreateApprovalRequestDto): Promise<ApprovalDto> {
    return this.createApproval.execute(caller, body);
  }

  @Post('consume')
  @HttpCode(200)
  async consume(@CurrentCaller() caller: Caller, @Body() body: ConsumeApprovalDto): Promise<ApprovalDto> {
    const used = await this.consumeApproval.execute(caller, body.fingerprint);
    if (!used) throw new AppError('not_found', 'not_found', 'no approved, unused and unexpired approval for this call');
    return used;
  }
}
