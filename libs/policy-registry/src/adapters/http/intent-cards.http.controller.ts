import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ErrorDto, InstallIntentCardDto, IntentCardDto, IntentCardListDto } from '@igw/contracts';
import { CurrentCaller, RequireScope } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { DeleteIntentCardUseCase } from '../../application/use-cases/delete-intent-card.use-case';
import { GetIntentCardUseCase } from '../../application/use-cases/get-intent-card.use-case';
import { InstallIntentCardUseCase } from '../../application/use-cases/install-intent-card.use-case';
import { ListIntentCardsUseCase } from '../../application/use-cases/list-intent-cards.use-case';

@ApiTags('intent-cards')
@ApiBearerAuth()
@Controller('v1/intent-cards')
export class IntentCardsHttpController {
  constructor(
    private readonly installCard: InstallIntentCardUseCase,
    private readonly listCards: ListIntentCardsUseCase,
    private readonly getCard: GetIntentCardUseCase,
    private readonly deleteCard: DeleteIntentCardUseCase,
  ) {}

  @Post()
  @RequireScope('policy_write')
  @ApiOperation({
    summary: "Install an intent card for the caller's org.",
    description:
      'Without `id` one is generated. Installing an `id` the org already has replaces that card (200, version + 1, created_at kept). ' +
      'Every rule condition must be a boolean CEL expression over `action`, `context` and `mandate`.',
  })
  @ApiResponse({ status: 201, type: IntentCardDto, description: 'installed' })
  @ApiResponse({ status: 200, type: IntentCardDto, description: 'replaced' })
  @ApiResponse({ status: 400, type: ErrorDto, description: 'invalid_request; `details` names each offending path, e.g. rules[2].when' })
  @ApiResponse({ status: 403, type: ErrorDto, description: 'insufficient_scope' })
  async install(@CurrentCaller() caller: Caller, @Body() body: InstallIntentCardDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<IntentCardDto> {
    const { card, created } = await this.installCard.execute(caller, body);
    void reply.status(created ? 201 : 200);
    return card;
  }

  @Get()
  @ApiOperation({ summary: "List the org's intent cards, newest first." })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 200 } })
  @ApiQuery({ name: 'cursor', required: false, type: String, description: '`next_cursor` of the previous page.' })
  @ApiResponse({ status: 200, type: IntentCardListDto })
  @ApiResponse({ status: 400, type: ErrorDto, description: 'invalid_request (names the parameter)' })
  list(@CurrentCaller() caller: Caller, @Query('limit') limit?: string, @Query('cursor') cursor?: string): Promise<IntentCardListDto> {
    return this.listCards.execute(caller, { limit, cursor });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One intent card.' })
  @ApiResponse({ status: 200, type: IntentCardDto })
  @ApiResponse({ status: 404, type: ErrorDto, description: 'not_found' })
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<IntentCardDto> {
    return this.getCard.execute(caller, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('policy_write')
  @ApiOperation({ summary: 'Remove an intent card; mandates for it are refused from then on.' })
  @ApiResponse({ status: 204, description: 'removed' })
  @ApiResponse({ status: 403, type: ErrorDto, description: 'insufficient_scope' })
  @ApiResponse({ status: 404, type: ErrorDto, description: 'not_found' })
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.deleteCard.execute(caller, id);
  }
}
