import { Injectable } from '@nestjs/common';
import type {
  ActiveIntentionsDto,
  InstallIntentCardDto,
  IntentCardDto,
  IntentCardsSnapshotDto,
  IntentionChangeDto,
  OrgIdsDto,
  PolicyRegistryApi,
  RegistryCounter,
  TaughtExamplesDto,
  TeachFromApprovalDto,
} from '@igw/contracts';
import { ForgetTaughtExamplesUseCase } from '../../application/use-cases/forget-taught-examples.use-case';
import { GetActiveIntentionsUseCase } from '../../application/use-cases/get-active-intentions.use-case';
import { GetIntentCardUseCase } from '../../application/use-cases/get-intent-card.use-case';
import { GetIntentCardsSnapshotUseCase } from '../../application/use-cases/get-intent-cards-snapshot.use-case';
import { ListStatefulOrgsUseCase } from '../../application/use-cases/list-stateful-orgs.use-case';
import { PreviewIntentCardUseCase } from '../../application/use-cases/preview-intent-card.use-case';
import { PreviewIntentionChangesUseCase } from '../../application/use-cases/preview-intention-changes.use-case';
import { TeachIntentionExamplesUseCase } from '../../application/use-cases/teach-intention-examples.use-case';

/**
 * Embedded mode: other services read (and teach) the registry through its use cases in the same process
 * (provided and exported under POLICY_REGISTRY_API). Distributed mode uses the internal HTTP route.
 */
@Injectable()
export class InProcessPolicyRegistryClient implements PolicyRegistryApi {
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

  activeIntentions(orgId: string): Promise<ActiveIntentionsDto> {
    return this.getActiveIntentions.execute(orgId);
  }

  intentCard(orgId: string, id: string): Promise<IntentCardDto | null> {
    return this.getIntentCard.find(orgId, id);
  }

  intentCards(orgId: string): Promise<IntentCardsSnapshotDto> {
    return this.getIntentCardsSnapshot.execute(orgId);
  }

  orgsWith(counter: RegistryCounter): Promise<OrgIdsDto> {
    return this.listStatefulOrgs.execute(counter);
  }

  teach(orgId: string, request: TeachFromApprovalDto): Promise<TaughtExamplesDto> {
    return this.teachExamples.execute(orgId, request);
  }

  forgetTaught(orgId: string, approvalId: string): Promise<void> {
    return this.forgetTaughtExamples.execute(orgId, approvalId);
  }

  previewIntentionChanges(orgId: string, changes: IntentionChangeDto[]): Promise<ActiveIntentionsDto> {
    return this.previewChanges.execute(orgId, changes);
  }

  previewIntentCard(orgId: string, card: InstallIntentCardDto): Promise<IntentCardsSnapshotDto> {
    return this.previewCard.execute(orgId, card);
  }
}
