import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CreateIntentionDto, INTENTION_STATUSES, IntentionDto, IntentionListDto } from '@igw/contracts';
import { ApiErrors, ApiPagedList, CurrentCaller, RequireScope, ResourceAction, ResourceRead } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { ArchiveIntentionUseCase } from '../../application/use-cases/archive-intention.use-case';
import { CreateIntentionUseCase } from '../../application/use-cases/create-intention.use-case';
import { GetIntentionUseCase } from '../../application/use-cases/get-intention.use-case';
import { ListIntentionsUseCase, type IntentionPage } from '../../application/use-cases/list-intentions.use-case';
import { PublishIntentionUseCase } from '../../application/use-cases/publish-intention.use-case';

/**
 * Intentions and purposes are one resource and one store (DESIGN 6.3): the same routes answer
 * under both prefixes, and a label is unique across both.
 */
@ApiTags('intentions')
@ApiBearerAuth()
@Controller(['v1/intentions', 'v1/purposes'])
export class IntentionsHttpController {
  constructor(
    private readonly createIntention: CreateIntentionUseCase,
    private readonly listIntentions: ListIntentionsUseCase,
    private readonly getIntention: GetIntentionUseCase,
    private readonly publishIntention: PublishIntentionUseCase,
    private readonly archiveIntention: ArchiveIntentionUseCase,
  ) {}

  @Post()
  @RequireScope('policy_write')
  @ApiOperation({ summary: 'Create an intention (a purpose); it starts as a draft.' })
  @ApiResponse({ status: 201, type: IntentionDto })
  @ApiErrors({ 400: 'invalid_request', 403: 'insufficient_scope', 409: 'label_conflict' })
  create(@CurrentCaller() caller: Caller, @Body() body: CreateIntentionDto): Promise<IntentionDto> {
    return this.createIntention.execute(caller, body);
  }

  @Get()
  @ApiOperation({ summary: "List the org's intentions, newest first." })
  @ApiQuery({ name: 'status', required: false, enum: INTENTION_STATUSES })
  @ApiPagedList(IntentionListDto, 200)
  list(
    @CurrentCaller() caller: Caller,
    @Query('status') status?: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<IntentionPage> {
    return this.listIntentions.execute(caller, { status, limit, cursor });
  }

  @ResourceRead(IntentionDto)
  @ApiOperation({ summary: 'One intention.' })
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<IntentionDto> {
    return this.getIntention.execute(caller, id);
  }

  @ResourceAction('publish', IntentionDto, 'policy_write')
  @ApiOperation({ summary: 'draft → active: the next matching call is decided against it. Publishing an active intention is a no-op.' })
  @ApiErrors({ 403: 'insufficient_scope', 404: 'not_found', 409: 'invalid_transition (archived)' })
  publish(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<IntentionDto> {
    return this.publishIntention.execute(caller, id);
  }

  @ResourceAction('archive', IntentionDto, 'policy_write')
  @ApiOperation({ summary: 'draft | active → archived; it stops matching traffic. Archiving twice is a no-op.' })
  @ApiErrors({ 403: 'insufficient_scope', 404: 'not_found' })
  archive(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<IntentionDto> {
    return this.archiveIntention.execute(caller, id);
  }
}
