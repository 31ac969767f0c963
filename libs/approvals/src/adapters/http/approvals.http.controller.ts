import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { APPROVAL_STATUSES, ApprovalDto, ApprovalListDto, DenyApprovalDto } from '@igw/contracts';
import { ApiErrors, ApiPagedList, CurrentCaller, ResourceAction, ResourceRead } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { ApproveApprovalUseCase } from '../../application/use-cases/approve-approval.use-case';
import { DenyApprovalUseCase } from '../../application/use-cases/deny-approval.use-case';
import { GetApprovalUseCase } from '../../application/use-cases/get-approval.use-case';
import { ListApprovalsUseCase, type ApprovalPage } from '../../application/use-cases/list-approvals.use-case';

/** Approval requests (DESIGN 6.10): anyone in the org may read them; policy_write decides. */
@ApiTags('approvals')
@Controller('v1/approvals')
export class ApprovalsHttpController {
  constructor(
    private readonly listApprovals: ListApprovalsUseCase,
    private readonly getApproval: GetApprovalUseCase,
    private readonly approveApproval: ApproveApprovalUseCase,
    private readonly denyApproval: DenyApprovalUseCase,
  ) {}

  @Get()
  @ApiOperation({ summary: "List the org's approval requests, newest first. A pending request past expires_at is listed as expired." })
  @ApiQuery({ name: 'status', required: false, enum: APPROVAL_STATUSES })
  @ApiPagedList(ApprovalListDto, 50)
  list(
    @CurrentCaller() caller: Caller,
    @Query('status') status?: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<ApprovalPage> {
    return this.listApprovals.execute(caller, { status, limit, cursor });
  }

  @ResourceRead(ApprovalDto)
  @ApiOperation({ summary: 'One approval request.' })
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<ApprovalDto> {
    return this.getApproval.execute(caller, id);
  }

  @ResourceAction('approve', ApprovalDto, 'policy_write')
  @ApiOperation({ summary: 'pending → approved: the same call is then let through once. No body.' })
  @ApiErrors({
    403: 'insufficient_scope, self_approval (the key whose call caused the request)',
    404: 'not_found',
    409: 'invalid_transition (already decided or expired)',
  })
  approve(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<ApprovalDto> {
    return this.approveApproval.execute(caller, id);
  }

  @ResourceAction('deny', ApprovalDto, 'policy_write')
  @ApiOperation({ summary: 'pending → denied, with an optional reason.' })
  @ApiBody({ type: DenyApprovalDto, required: false })
  @ApiErrors({ 400: 'invalid_request', 403: 'insufficient_scope, self_approval', 404: 'not_found', 409: 'invalid_transition (already decided or expired)' })
  deny(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body?: DenyApprovalDto): Promise<ApprovalDto> {
    return this.denyApproval.execute(caller, id, body);
  }
}
