import { Inject, Injectable } from '@nestjs/common';
import { ExactReadModel, webhooksKey, VERSION_BOARD, type OrgState, type ReadModelSource, type VersionBoard } from '@igw/events';
import { CLOCK, type Clock } from '@igw/kernel';
import { WEBHOOK_REPOSITORY, type WebhookRepository } from '../ports/webhook.repository.port';

/** A safety net for a board advance that failed: a copy older than this is read again. */
export const SUBSCRIPTIONS_MAX_AGE_MS = 10_000;

interface OrgSubscriptions extends OrgState {
  types: ReadonlySet<string>;
}

/**
 * Which event types an org's active webhooks want, in memory (the shared ExactReadModel): most
 * orgs have none, and asking the database for every event of every org would make fan-out the
 * cost of every decision. Exact: the org's counter on the version board is read for each event and
 * a copy behind it is reloaded (the repository advances the board after each change commits); a
 * copy older than SUBSCRIPTIONS_MAX_AGE_MS is reloaded too. A board that cannot be read throws,
 * so the bus delivers the event again — an event is never dropped on a guess.
 */
@Injectable()
export class WebhookSubscriptions {
  readonly model: ExactReadModel<OrgSubscriptions>;

  constructor(
    @Inject(VERSION_BOARD) board: VersionBoard,
    @Inject(WEBHOOK_REPOSITORY) webhooks: Pick<WebhookRepository, 'subscriptions' | 'subscribedOrgIds'>,
    @Inject(CLOCK) clock: Clock,
  ) {
    const source: ReadModelSource<OrgSubscriptions> = {
      load: async (orgId) => {
        const s = await webhooks.subscriptions(orgId);
        return { version: s.version, types: new Set(s.types) };
      },
      orgs: () => webhooks.subscribedOrgIds(),
    };
    const label = { name: 'webhook subscriptions', owner: 'webhook store' };
    this.model = ExactReadModel.over(board, webhooksKey, label, source, { maxAgeMs: SUBSCRIPTIONS_MAX_AGE_MS, clock });
  }

  async wants(orgId: string, type: string): Promise<boolean> {
    return (await this.model.current(orgId)).types.has(type);
  }
}
