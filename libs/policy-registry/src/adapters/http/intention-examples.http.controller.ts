import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { CreateIntentionExampleDto, EXAMPLE_LIMITS, IntentionExampleDto, IntentionExampleListDto } from '@igw/contracts';
import { ApiErrors, ApiJsonBody, ApiNotFound, ApiOp, ApiPagedList, CurrentCaller, RequireScope } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { AddIntentionExampleUseCase } from '../../application/use-cases/add-intention-example.use-case';
import { ListIntentionExamplesUseCase, type IntentionExamplePage } from '../../application/use-cases/list-intention-examples.use-case';
import { RemoveIntentionExampleUseCase } from '../../application/use-cases/remove-intention-example.use-case';
import { CREATE_INTENTION_EXAMPLE_EXAMPLES, INTENTION_EXAMPLE_EXAMPLE, INTENTION_EXAMPLE_LIST_EXAMPLE } from './intentions.examples';

/**
 * Examples of an intention (DESIGN 6.15), under both prefixes like the intention itself: calls it
 * covers for certain, or must never match. Each change takes effect at once in every replica.
 */
@ApiTags('intentions')
@Controller(['v1/intentions', 'v1/purposes'])
export class IntentionExamplesHttpController {
  constructor(
    private readonly addExample: AddIntentionExampleUseCase,
    private readonly listExamples: ListIntentionExamplesUseCase,
    private readonly removeExample: RemoveIntentionExampleUseCase,
  ) {}

  @Post(':id/examples')
  @RequireScope('policy_write')
  @ApiOp({
    id: ['addIntentionExample', 'addPurposeExample'],
    summary: 'Teach an intention by example.',
    description:
      `\`covered: true\`: calls like this one (same tool, same action, compatible arguments) are matched to this intention with certainty. \`covered: false\`: calls like it are never matched to it. Draft and active intentions take examples, archived ones do not; one intention holds at most ${EXAMPLE_LIMITS.perIntention}, each at most ${EXAMPLE_LIMITS.bytes / 1024} KiB of JSON (\`tool_call\` with its \`conversation_context\`). ` +
      'The next matching call is decided with it, in every replica. Needs policy_write.',
  })
  @ApiJsonBody(CreateIntentionExampleDto, CREATE_INTENTION_EXAMPLE_EXAMPLES)
  @ApiResponse({ status: 201, type: IntentionExampleDto, description: 'The stored example (`source: manual`).', example: INTENTION_EXAMPLE_EXAMPLE })
  @ApiErrors({
    400: [
      { code: 'invalid_request', message: 'covered is required' },
      { code: 'invalid_request', message: `tool_call with its conversation_context must be at most ${EXAMPLE_LIMITS.bytes} bytes of JSON (it is 20480)` },
    ],
    404: { code: 'not_found', message: 'intention not found' },
    409: [
      { code: 'invalid_transition', message: 'an archived intention takes no examples' },
      {
        code: 'example_limit',
        message: `intention "billing.refund" already holds ${EXAMPLE_LIMITS.perIntention} examples, the most one may hold; remove some first`,
      },
    ],
  })
  add(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: CreateIntentionExampleDto): Promise<IntentionExampleDto> {
    return this.addExample.execute(caller, id, body);
  }

  @Get(':id/examples')
  @ApiOp({
    id: ['listIntentionExamples', 'listPurposeExamples'],
    summary: "An intention's examples, newest first.",
    description:
      'Keyset-paged: pass `next_cursor` as `cursor` until it is null. Manual examples and those taught from the approval queue (`source: approval`).',
  })
  @ApiPagedList(IntentionExampleListDto, 200, INTENTION_EXAMPLE_LIST_EXAMPLE)
  @ApiNotFound('intention')
  list(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<IntentionExamplePage> {
    return this.listExamples.execute(caller, id, { limit, cursor });
  }

  @Delete(':id/examples/:example_id')
  @HttpCode(204)
  @RequireScope('policy_write')
  @ApiOp({
    id: ['removeIntentionExample', 'removePurposeExample'],
    summary: 'Forget one example of an intention.',
    description:
      'Calls like it are decided without it from the next request on, in every replica. Not idempotent: removing it again is a 404. Needs policy_write.',
  })
  @ApiResponse({ status: 204, description: 'Removed; no body.' })
  @ApiNotFound('example')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string, @Param('example_id') exampleId: string): Promise<void> {
    await this.removeExample.execute(caller, id, exampleId);
  }
}
