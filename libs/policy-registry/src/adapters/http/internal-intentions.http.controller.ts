import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  IntentCardPreviewDto,
  IntentionPreviewDto,
  TeachFromApprovalDto,
  type ActiveIntentionsDto,
  type IntentCardDto,
  type IntentCardsSnapshotDto,
  type OrgIdsDto,
  type TaughtExamplesDto,
} from '@igw/contracts';
import { CurrentCaller, RequireScope } from '@igw/http';
import { invalidRequest, type Caller } from '@igw/kernel';
import { GetIntentCardUseCase } from '../../application/use-cases/get-intent-card.use-case';
import { GetIntentCardsSnapshotUseCase } from '../../application/use-cases/get-intent-cards-snapshot.use-case';
import { GetActiveIntentionsUseCase } from '../../application/use-cases/get-active-intentions.use-case';
import { ListStatefulOrgsUseCase } from '../../application/use-cases/list-stateful-orgs.use-case';
import { ForgetTaughtExamplesUseCase } from '../../application/use-cases/forget-taught-examples.use-case';
import { TeachIntentionExamplesUseCase } from '../../application/use-cases/teach-intention-examples.use-case';
import { PreviewIntentCardUseCase } from '../../application/use-cases/preview-intent-card.use-case';
import { PreviewIntentionChangesUseCase } from '../../application/use-cases/preview-intention-changes.use-case';

/**
 * Service-to-service routes of distributed mode (the evaluator refreshes its cache here; the
 * gateway never forwards `/internal/*`). The caller is resolved from the internal token headers
 * like every route of the app and only ever reads its own org; read_only is enough to read, and
 * teaching (the approvals service, for an operator's `remember: true`) needs policy_write. Not
 * part of the public OpenAPI document.
 */
@ApiExcludeController()
@Controller('internal')
export class InternalIntentionsHttpController {
  constructor(
    private readonly getActiveIntentions: GetActiveIntentionsUseCase,
    private readonly getIntentCard: GetIntentCardUseCase,
    private readonly getIntentCardsSnapshot: GetIntentCardsSnapshotUseCase,
    private readonly listStatefulOrgs: ListStatefulOrgsUseCase,
    private readonly teachExamples: TeachIntentionExamplesUseCase,
    private readonly forgetTaughtExamples: ForgetTaughtExamplesUseCase,
    private readonly previewChanges: PreviewIntentionChangesUseCase,
    private readonly previewCard: PreviewIntentCardUseCase,
  ) {}

  /**
   * The orgs whose intentions (`with=intentions`) or cards (`with=cards`) ever changed: a reader
   * loads them at start. Org ids only, no org's data, so the caller's org plays no part.
   */
  @Get('orgs')
  orgs(@Query('with') counter: unknown): Promise<OrgIdsDto> {
    if (counter !== 'intentions' && counter !== 'cards')
      throw invalidRequest('with must be intentions or cards', [{ path: 'with', message: 'with must be intentions or cards' }]);
    return this.listStatefulOrgs.execute(counter);
  }

  @Get('intentions/active')
  active(@CurrentCaller() caller: Caller): Promise<ActiveIntentionsDto> {
    return this.getActiveIntentions.execute(caller.orgId);
  }

  /**
   * All of the caller's org's installed cards with the cards counter they correspond to. Declared
   * before `intent-cards/:id`; the paths differ in segment count anyway, so neither shadows the other.
   */
  @Get('intent-cards')
  cards(@CurrentCaller() caller: Caller): Promise<IntentCardsSnapshotDto> {
    return this.getIntentCardsSnapshot.execute(caller.orgId);
  }

  /** The caller's org's card (mandate dispense); 404 `not_found` otherwise. */
  @Get('intent-cards/:id')
  card(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<IntentCardDto> {
    return this.getIntentCard.execute(caller, id);
  }

  /** PolicyRegistryApi.teach: 201 with the stored examples (a repeat of the approval answers them again, nothing new). */
  @Post('intention-examples/teach')
  @RequireScope('policy_write')
  teach(@CurrentCaller() caller: Caller, @Body() body: TeachFromApprovalDto): Promise<TaughtExamplesDto> {
    return this.teachExamples.execute(caller.orgId, body);
  }

  /** PolicyRegistryApi.forgetTaught: 204 whether or not anything was taught from the approval. */
  @Delete('intention-examples/taught/:approvalId')
  @HttpCode(204)
  @RequireScope('policy_write')
  async forget(@CurrentCaller() caller: Caller, @Param('approvalId') approvalId: string): Promise<void> {
    await this.forgetTaughtExamples.execute(caller.orgId, approvalId);
  }

  /**
   * PolicyRegistryApi.previewIntentionChanges: the active set with a draft applied, stored nowhere
   * (what-if replay). The body was validated where the operator sent it (the evaluator's edge);
   * the domain rules run here. policy_write, as the replay itself.
   */
  @Post('intentions/preview')
  @HttpCode(200)
  @RequireScope('policy_write')
  preview(@CurrentCaller() caller: Caller, @Body() body: IntentionPreviewDto): Promise<ActiveIntentionsDto> {
    return this.previewChanges.execute(caller.orgId, body.changes);
  }

  /** PolicyRegistryApi.previewIntentCard: the installed cards with a draft card installed, stored nowhere (what-if replay). */
  @Post('intent-cards/preview')
  @HttpCode(200)
  @RequireScope('policy_write')
  previewIntentCard(@CurrentCaller() caller: Caller, @Body() body: IntentCardPreviewDto): Promise<IntentCardsSnapshotDto> {
    return this.previewCard.execute(caller.orgId, body.card);
  }
}
