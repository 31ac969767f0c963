import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CreateIntentionDto, INTENTION_STATUSES, IntentionDto, IntentionListDto, UpdateIntentionDto } from '@igw/contracts';
import { ApiErrors, ApiJsonBody, ApiOp, ApiPagedList, CurrentCaller, RequireScope, ResourceAction, ResourceRead, ApiNotFound } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { ArchiveIntentionUseCase } from '../../application/use-cases/archive-intention.use-case';
import { CreateIntentionUseCase } from '../../application/use-cases/create-intention.use-case';
import { GetIntentionUseCase } from '../../application/use-cases/get-intention.use-case';
import { ListIntentionsUseCase, type IntentionPage } from '../../application/use-cases/list-intentions.use-case';
import { PublishIntentionUseCase } from '../../application/use-cases/publish-intention.use-case';
import { UpdateIntentionUseCase } from '../../application/use-cases/update-intention.use-case';
import {
  ACTIVE_INTENTION_EXAMPLE,
  ARCHIVED_INTENTION_EXAMPLE,
  CREATE_INTENTION_EXAMPLES,
  INTENTION_EXAMPLE,
  INTENTION_LIST_EXAMPLE,
  UPDATE_INTENTION_EXAMPLES,
  UPDATED_INTENTION_EXAMPLE,
} from './intentions.examples';

/**
 * Intentions and purposes are one resource and one store (DESIGN 6.3): the same routes answer
 * under both prefixes, and a label is unique across both.
 */
@ApiTags('intentions')
@Controller(['v1/intentions', 'v1/purposes'])
export class IntentionsHttpController {
  constructor(
    private readonly createIntention: CreateIntentionUseCase,
    private readonly listIntentions: ListIntentionsUseCase,
    private readonly getIntention: GetIntentionUseCase,
    private readonly publishIntention: PublishIntentionUseCase,
    private readonly archiveIntention: ArchiveIntentionUseCase,
    private readonly updateIntention: UpdateIntentionUseCase,
  ) {}

  @Post()
  @RequireScope('policy_write')
  @ApiOp({
    id: ['createIntention', 'createPurpose'],
    summary: 'Create an intention (a purpose); it starts as a draft.',
    description:
      'A draft decides nothing: publish it to take effect. `label` is unique across the intentions and purposes of your org. `description` is what the classifier matches tool calls against, so say what is covered and what is not. Needs policy_write.',
  })
  @ApiJsonBody(CreateIntentionDto, CREATE_INTENTION_EXAMPLES)
  @ApiResponse({ status: 201, type: IntentionDto, description: 'The new intention, a draft.', example: INTENTION_EXAMPLE })
  @ApiErrors({
    400: [
      { code: 'invalid_request', message: 'intent_class must be one of reporting, export, admin, lookup, analysis, write, other' },
      { code: 'invalid_request', message: 'tools[0] must use at most 32 wildcards' },
    ],
    409: { code: 'label_conflict', message: 'an intention with label "billing.refund" already exists' },
  })
  create(@CurrentCaller() caller: Caller, @Body() body: CreateIntentionDto): Promise<IntentionDto> {
    return this.createIntention.execute(caller, body);
  }

  @Get()
  @ApiOp({
    id: ['listIntentions', 'listPurposes'],
    summary: "List the org's intentions, newest first.",
    description: 'Keyset-paged: pass `next_cursor` as `cursor` until it is null. `status` keeps one status only.',
  })
  @ApiQuery({ name: 'status', required: false, enum: INTENTION_STATUSES })
  @ApiPagedList(IntentionListDto, 200, INTENTION_LIST_EXAMPLE)
  list(
    @CurrentCaller() caller: Caller,
    @Query('status') status?: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<IntentionPage> {
    return this.listIntentions.execute(caller, { status, limit, cursor });
  }

  @ResourceRead(IntentionDto, ACTIVE_INTENTION_EXAMPLE, 'intention')
  @ApiOp({ id: ['getIntention', 'getPurpose'], summary: 'One intention.', description: "Another org's id is a 404, as an unknown one is." })
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<IntentionDto> {
    return this.getIntention.execute(caller, id);
  }

  @Patch(':id')
  @RequireScope('policy_write')
  @ApiOp({
    id: ['updateIntention', 'updatePurpose'],
    summary: 'Change some fields of a draft or active intention.',
    description:
      'Only the fields given change; `label` and the server-assigned fields are ignored. A change makes a new `version` and takes effect at once in every replica (the read models are refreshed before the answer); values equal to the current ones change nothing. An archived intention cannot be changed. Needs policy_write.',
  })
  @ApiJsonBody(UpdateIntentionDto, UPDATE_INTENTION_EXAMPLES)
  @ApiResponse({ status: 200, type: IntentionDto, description: 'The intention after the change.', example: UPDATED_INTENTION_EXAMPLE })
  @ApiErrors({
    400: [
      {
        code: 'invalid_request',
        message: 'body must change at least one of display_name, description, intent_class, approval_required, ttl_minutes, data_elements, tools',
      },
      { code: 'invalid_request', message: 'tools[0] must use at most 32 wildcards' },
    ],
    404: { code: 'not_found', message: 'intention not found' },
    409: { code: 'invalid_transition', message: 'an archived intention cannot be changed' },
  })
  update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: UpdateIntentionDto): Promise<IntentionDto> {
    return this.updateIntention.execute(caller, id, body);
  }

  @ResourceAction('publish', IntentionDto, 'policy_write', ACTIVE_INTENTION_EXAMPLE)
  @ApiOp({
    id: ['publishIntention', 'publishPurpose'],
    summary: 'Publish: draft → active.',
    description:
      'The next matching call is decided against it, in every replica (the read models are refreshed before the answer). Publishing an active intention is a no-op; an archived one cannot come back. Needs policy_write.',
  })
  @ApiErrors({
    404: { code: 'not_found', message: 'intention not found' },
    409: { code: 'invalid_transition', message: 'an archived intention cannot be published' },
  })
  publish(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<IntentionDto> {
    return this.publishIntention.execute(caller, id);
  }

  @ResourceAction('archive', IntentionDto, 'policy_write', ARCHIVED_INTENTION_EXAMPLE)
  @ApiOp({
    id: ['archiveIntention', 'archivePurpose'],
    summary: 'Archive: draft | active → archived.',
    description: 'It stops matching traffic at once; calls it covered are then decided without it. Archiving twice is a no-op. Needs policy_write.',
  })
  @ApiNotFound('intention')
  archive(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<IntentionDto> {
    return this.archiveIntention.execute(caller, id);
  }
}
