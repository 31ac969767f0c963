import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { InstallIntentCardDto, IntentCardDto, IntentCardListDto } from '@igw/contracts';
import { ApiErrors, ApiPagedList, CurrentCaller, RequireScope, ResourceRead } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { DeleteIntentCardUseCase } from '../../application/use-cases/delete-intent-card.use-case';
import { GetIntentCardUseCase } from '../../application/use-cases/get-intent-card.use-case';
import { InstallIntentCardUseCase } from '../../application/use-cases/install-intent-card.use-case';
import { ListIntentCardsUseCase } from '../../application/use-cases/list-intent-cards.use-case';

@ApiTags('intent-cards')
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
  @ApiErrors({ 400: 'invalid_request; `details` names each offending path, e.g. rules[2].when', 403: 'insufficient_scope' })
  async install(@CurrentCaller() caller: Caller, @Body() body: InstallIntentCardDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<IntentCardDto> {
    const { card, created } = await this.installCard.execute(caller, body);
    void reply.status(created ? 201 : 200);
    return card;
  }

  @Get()
  @ApiOperation({ summary: "List the org's intent cards, newest first." })
  @ApiPagedList(IntentCardListDto, 200)
  list(@CurrentCaller() caller: Caller, @Query('limit') limit?: string, @Query('cursor') cursor?: string): Promise<IntentCardListDto> {
    return this.listCards.execute(caller, { limit, cursor });
  }

  @ResourceRead(IntentCardDto)
  @ApiOperation({ summary: 'One intent card.' })
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<IntentCardDto> {
    return this.getCard.execute(caller, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('policy_write')
  @ApiOperation({ summary: 'Remove an intent card; mandates for it are refused from then on.' })
  @ApiResponse({ status: 204, description: 'removed' })
  @ApiErrors({ 403: 'insufficient_scope', 404: 'not_found' })
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.deleteCard.execute(caller, id);
  }
}
