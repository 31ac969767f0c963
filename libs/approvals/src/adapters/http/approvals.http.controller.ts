import { applyDecorators, Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBody, ApiResponse, ApiTags } from '@nestjs/swagger';
import { APPROVAL_STATUSES, ApprovalDto, ApprovalListDto, ApproveApprovalDto, DenyApprovalDto, ErrorDto } from '@igw/contracts';
import { ApiErrors, ApiOp, ApiStatusPage, CurrentCaller, ResourceAction, ApiNotFound } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { ApproveApprovalUseCase } from '../../application/use-cases/approve-approval.use-case';
import { DenyApprovalUseCase } from '../../application/use-cases/deny-approval.use-case';
import { GetApprovalUseCase } from '../../application/use-cases/get-approval.use-case';
import { ListApprovalsUseCase, type ApprovalPage } from '../../application/use-cases/list-approvals.use-case';
import {
  APPROVAL_LIST_EXAMPLE,
  APPROVE_APPROVAL_400_EXAMPLES,
  APPROVE_APPROVAL_404_EXAMPLES,
  APPROVE_APPROVAL_EXAMPLES,
  APPROVED_APPROVAL_EXAMPLE,
  DECIDED_APPROVAL_409_EXAMPLES,
  DENIED_APPROVAL_EXAMPLE,
  DENY_APPROVAL_400_EXAMPLES,
  DENY_APPROVAL_EXAMPLES,
  PENDING_APPROVAL_EXAMPLE,
} from './approvals.examples';

const SELF_APPROVAL = { code: 'self_approval', message: 'the API key whose call caused this approval request cannot decide it' };

/** The 409 of approve and deny: no longer pending, or (remember) the registry refused the example. */
const DecisionConflict = () =>
  ApiResponse({
    status: 409,
    type: ErrorDto,
    description:
      '`invalid_transition`: the request is no longer pending (approved, denied or expired); with `remember`, the request staying pending: `decision_in_progress`, another decision with `remember` is storing what it teaches (retry shortly), or `example_limit`, the intention holds its maximum of examples',
    examples: DECIDED_APPROVAL_409_EXAMPLES,
  });

/** What denying refuses, beyond the edge's answers and its body. */
const DecisionRefusals = () =>
  applyDecorators(ApiErrors({ 403: SELF_APPROVAL, 404: { code: 'not_found', message: 'approval request not found' } }), DecisionConflict());

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
  @ApiOp({
    id: 'listApprovals',
    summary: "List the org's approval requests, newest first.",
    description:
      'Requests are queued by `POST /v1/intent/evaluate` (an intention with approval_required) and by the MCP proxy (an intent card rule asking for approval); while one is pending, the same call retried points at it again rather than queuing another. A pending request past `expires_at` is listed, and filtered, as `expired`. Keyset-paged: pass `next_cursor` as `cursor` until it is null. Any key of the org may read.',
  })
  @ApiStatusPage(APPROVAL_STATUSES, ApprovalListDto, APPROVAL_LIST_EXAMPLE)
  list(
    @CurrentCaller() caller: Caller,
    @Query('status') status?: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<ApprovalPage> {
    return this.listApprovals.execute(caller, { status, limit, cursor });
  }

  @Get(':id')
  @ApiOp({
    id: 'getApproval',
    summary: 'One approval request.',
    description:
      "Its status as of now: a pending request past `expires_at` reads as `expired`. Another org's id is a 404, as an unknown one is. Any key of the org may read.",
  })
  @ApiResponse({ status: 200, type: ApprovalDto, description: 'The request.', example: PENDING_APPROVAL_EXAMPLE })
  @ApiNotFound('approval request')
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<ApprovalDto> {
    return this.getApproval.execute(caller, id);
  }

  @ResourceAction('approve', ApprovalDto, 'policy_write', APPROVED_APPROVAL_EXAMPLE)
  @ApiOp({
    id: 'approveApproval',
    summary: 'Approve: pending → approved, optionally teaching the match.',
    description:
      "The body is optional. The key whose call caused the request cannot approve it (403 `self_approval`, whatever the state): a second key of the org must. Once approved, the same call (same tool call, or the same action of the same mandate) retried before `expires_at` is let through once; a different call asks again. Emits `approval.approved`. A decided or expired request is 409 `invalid_transition`, so of concurrent decisions one wins.\n\nRequests of `POST /v1/intent/evaluate` (they hold the evaluated `tool_call`) may also be taught from (DESIGN 6.15): `intent_label` approves the call as another active intention of the org (404 `intent_not_found` otherwise); the request then names it in `intent_label`, the grant of the retried call is for it, and the classifier's candidate stays in `candidates`. `remember: true` stores the call as a positive example of the approved intention (with a correction, also a negative example of the candidate), so calls like it are certain from now on. Teaching happens first: when the registry refuses it (404, 409 `example_limit`, 503) the request stays pending. Either field on a request without an evaluated call (the mandate path) is 400 naming it. Needs policy_write.",
  })
  @ApiBody({ type: ApproveApprovalDto, required: false, examples: APPROVE_APPROVAL_EXAMPLES })
  @ApiResponse({
    status: 400,
    type: ErrorDto,
    description:
      '`invalid_request`: a field other than `reason`, `remember` and `intent_label`, a malformed one, or `remember` / `intent_label` on a request that holds no evaluated call',
    examples: APPROVE_APPROVAL_400_EXAMPLES,
  })
  @ApiErrors({ 403: SELF_APPROVAL })
  @ApiResponse({
    status: 404,
    type: ErrorDto,
    description: '`not_found`: approval request not found; `intent_not_found`: `intent_label` names no active intention of the org',
    examples: APPROVE_APPROVAL_404_EXAMPLES,
  })
  @DecisionConflict()
  approve(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body?: ApproveApprovalDto): Promise<ApprovalDto> {
    return this.approveApproval.execute(caller, id, body);
  }

  @ResourceAction('deny', ApprovalDto, 'policy_write', DENIED_APPROVAL_EXAMPLE)
  @ApiOp({
    id: 'denyApproval',
    summary: 'Deny: pending → denied, with an optional reason.',
    description:
      'The body is optional; `reason` is kept on the request and sent in `approval.denied`. The call stays refused: retried, it queues a new request. Same rules as approving: the key whose call caused the request cannot deny it (403 `self_approval`), and a decided or expired request is 409 `invalid_transition`. On a request of `POST /v1/intent/evaluate`, `remember: true` first stores the call as a negative example of the candidate intention, so calls like it are never matched to it (DESIGN 6.15; when the registry refuses, the request stays pending); on one without an evaluated call it is 400 naming `remember`. Needs policy_write.',
  })
  @ApiBody({ type: DenyApprovalDto, required: false, examples: DENY_APPROVAL_EXAMPLES })
  @ApiResponse({
    status: 400,
    type: ErrorDto,
    description:
      '`invalid_request`: the body names a field other than `reason` and `remember`, `reason` is longer than 1000 characters, or `remember` is on a request that holds no evaluated call',
    examples: DENY_APPROVAL_400_EXAMPLES,
  })
  @DecisionRefusals()
  deny(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body?: DenyApprovalDto): Promise<ApprovalDto> {
    return this.denyApproval.execute(caller, id, body);
  }
}
