import { Injectable } from '@nestjs/common';
import type { ActiveIntentionsDto, IntentCardDto, IntentCardsSnapshotDto, OrgIdsDto, PolicyRegistryApi, RegistryCounter } from '@igw/contracts';
import { GetActiveIntentionsUseCase } from '../../application/use-cases/get-active-intentions.use-case';
import { GetIntentCardUseCase } from '../../application/use-cases/get-intent-card.use-case';
import { GetIntentCardsSnapshotUseCase } from '../../application/use-cases/get-intent-cards-snapshot.use-case';
import { ListStatefulOrgsUseCase } from '../../application/use-cases/list-stateful-orgs.use-case';

/**
 * Embedded mode: other services read the registry through its use cases in the same process
 * (provided and exported under POLICY_REGISTRY_API). Distributed mode uses the internal HTTP route.
 */
@Injectable()
export class InProcessPolicyRegistryClient implements PolicyRegistryApi {
  constructor(
    private readonly getActiveIntentions: GetActiveIntentionsUseCase,
    private readonly getIntentCard: GetIntentCardUseCase,
    private readonly getIntentCardsSnapshot: GetIntentCardsSnapshotUseCase,
    private readonly listStatefulOrgs: ListStatefulOrgsUseCase,
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
}
