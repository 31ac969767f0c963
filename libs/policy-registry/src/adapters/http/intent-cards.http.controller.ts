import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ErrorDto, InstallIntentCardDto, IntentCardDto, IntentCardListDto } from '@igw/contracts';
import { ApiJsonBody, ApiOp, ApiPagedList, CurrentCaller, RequireScope, ApiNotFound } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { DeleteIntentCardUseCase } from '../../application/use-cases/delete-intent-card.use-case';
import { GetIntentCardUseCase } from '../../application/use-cases/get-intent-card.use-case';
import { InstallIntentCardUseCase } from '../../application/use-cases/install-intent-card.use-case';
import { ListIntentCardsUseCase } from '../../application/use-cases/list-intent-cards.use-case';
import {
  GENERATED_INTENT_CARD_EXAMPLE,
  INSTALL_INTENT_CARD_EXAMPLES,
  INTENT_CARD_EXAMPLE,
  INTENT_CARD_LIST_EXAMPLE,
  REPLACED_INTENT_CARD_EXAMPLE,
} from './intent-cards.examples';

/** The 400s install answers: the body's shape, then every problem of the card at once, in `details`. */
const INSTALL_REFUSALS = {
  condition: {
    summary: 'A rule condition that is not a boolean CEL expression',
    value: {
      code: 'invalid_request',
      message:
        "rules[0].when is not a valid condition: expression must evaluate to a bool, not 'dyn': compare the field (for example `action.arguments.flag == true`)",
      details: [
        {
          path: 'rules[0].when',
          message:
            "rules[0].when is not a valid condition: expression must evaluate to a bool, not 'dyn': compare the field (for example `action.arguments.flag == true`)",
        },
        { path: 'rules[1].decision.replacement_action', message: 'rules[1].decision.replacement_action is required for kind substitute and must be an object' },
      ],
    },
  },
  scope: {
    summary: 'A scope pattern with a wildcard other than * and **',
    value: {
      code: 'invalid_request',
      message: 'allowed_scope.forbidden_operations[0] must use only * and ** as wildcards (found ?)',
      details: [
        { path: 'allowed_scope.forbidden_operations[0]', message: 'allowed_scope.forbidden_operations[0] must use only * and ** as wildcards (found ?)' },
      ],
    },
  },
  field: {
    summary: 'A field missing or of the wrong type',
    value: { code: 'invalid_request', message: 'audiences is required', details: [{ path: 'audiences', message: 'audiences is required' }] },
  },
};

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
  @ApiOp({
    id: 'installIntentCard',
    summary: 'Install an intent card, or replace the one with the same id.',
    description:
      'Without `id` one is generated (`card_…`) and the card is new (201). Installing an `id` your org already has replaces that card whole (200): the new content, `version` + 1, `created_at` kept; omitted optional fields take their defaults again, they are not merged. ' +
      'The card is checked before anything is stored and every problem is named at once in `details`: each rule condition must be a boolean CEL expression over `action`, `context` and `mandate`; rule ids must be unique; each decision kind must carry the fields it needs (`substitute` a `replacement_action`, `step_up` a `required_acr`…); scope patterns may use only `*` and `**` as wildcards. ' +
      'Mandates dispensed and calls decided from the next request on use the new version. Needs policy_write.',
  })
  @ApiJsonBody(InstallIntentCardDto, INSTALL_INTENT_CARD_EXAMPLES)
  @ApiResponse({
    status: 201,
    type: IntentCardDto,
    description: 'The card was new: installed at version 1, or, for an id removed before, at the version after its removal.',
    examples: {
      complete: { summary: 'The `complete` body, installed the first time', value: INTENT_CARD_EXAMPLE },
      minimal: { summary: 'The `minimal` body: the id generated, the defaults filled in', value: GENERATED_INTENT_CARD_EXAMPLE },
    },
  })
  @ApiResponse({
    status: 200,
    type: IntentCardDto,
    description: 'A card with this id existed: it is replaced (`version` + 1, `created_at` kept).',
    example: REPLACED_INTENT_CARD_EXAMPLE,
  })
  @ApiResponse({
    status: 400,
    type: ErrorDto,
    description: '`invalid_request`: `details` names each offending path, e.g. `rules[2].when`.',
    examples: INSTALL_REFUSALS,
  })
  async install(@CurrentCaller() caller: Caller, @Body() body: InstallIntentCardDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<IntentCardDto> {
    const { card, created } = await this.installCard.execute(caller, body);
    void reply.status(created ? 201 : 200);
    return card;
  }

  @Get()
  @ApiOp({
    id: 'listIntentCards',
    summary: "List the org's intent cards, newest first.",
    description:
      'Newest installed first (a replaced card keeps its place: the order is by `created_at`). Keyset-paged: pass `next_cursor` as `cursor` until it is null. Any key may read.',
  })
  @ApiPagedList(IntentCardListDto, 200, INTENT_CARD_LIST_EXAMPLE)
  list(@CurrentCaller() caller: Caller, @Query('limit') limit?: string, @Query('cursor') cursor?: string): Promise<IntentCardListDto> {
    return this.listCards.execute(caller, { limit, cursor });
  }

  @Get(':id')
  @ApiOp({
    id: 'getIntentCard',
    summary: 'One intent card.',
    description: "The card as installed, at its current version. Another org's id is a 404, as an unknown one is. Any key may read.",
  })
  @ApiResponse({ status: 200, type: IntentCardDto, description: 'The card.', example: INTENT_CARD_EXAMPLE })
  @ApiNotFound('intent card')
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<IntentCardDto> {
    return this.getCard.execute(caller, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('policy_write')
  @ApiOp({
    id: 'removeIntentCard',
    summary: 'Remove an intent card; mandates for it are refused from then on.',
    description:
      'From the next request on, dispensing or refreshing a mandate for it is refused (404 `intent_not_found`), and so is every call made with a mandate already dispensed for it. Not idempotent: removing it again is a 404. Installing the same id later makes a new card whose version goes on from the removal (a version never names two contents). Needs policy_write.',
  })
  @ApiResponse({ status: 204, description: 'Removed; no body.' })
  @ApiNotFound('intent card')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.deleteCard.execute(caller, id);
  }
}
