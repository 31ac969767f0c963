import { Inject, Injectable } from '@nestjs/common';
import { webhooksKey, VERSION_BOARD, type VersionBoard } from '@igw/events';
import { CLOCK, DependencyUnavailableError, type Clock } from '@igw/kernel';
import { WEBHOOK_REPOSITORY, type WebhookRepository } from '../ports/webhook.repository.port';

/** A safety net for a board advance that failed: a copy older than this is read again. */
export const SUBSCRIPTIONS_MAX_AGE_MS = 10_000;

interface OrgSubscriptions {
  version: number;
  types: ReadonlySet<string>;
  loadedAt: number;
}

/**
 * Which event types an org's active webhooks want, in memory: most orgs have none, and asking the
 * database for every event of every org would make fan-out the cost of every decision. Exact: the
 * org's counter on the version board is read for each event and a copy behind it is reloaded (the
 * repository advances the board after each change commits). A board that cannot be read throws,
 * so the bus delivers the event again — an event is never dropped on a guess.
 */
@Injectable()
export class WebhookSubscriptions {
  private readonly orgs = new Map<string, OrgSubscriptions>();
  private readonly loading = new Map<string, Promise<OrgSubscriptions>>();

  constructor(
    @Inject(VERSION_BOARD) private readonly board: VersionBoard,
    @Inject(WEBHOOK_REPOSITORY) private readonly webhooks: Pick<WebhookRepository, 'subscriptions'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async wants(orgId: string, type: string): Promise<boolean> {
    let current: number;
    try {
      current = await this.board.current(webhooksKey(orgId));
    } catch (err) {
      throw new DependencyUnavailableError('version board', err);
    }
    const now = this.clock.now().getTime();
    const cached = this.orgs.get(orgId);
    if (cached && cached.version >= current && now - cached.loadedAt < SUBSCRIPTIONS_MAX_AGE_MS) return cached.types.has(type);
    let fresh = await this.load(orgId);
    // A load already running may have read before the change this call was told about: once more.
    if (fresh.version < current) fresh = await this.load(orgId);
    if (fresh.version < current) throw new DependencyUnavailableError('webhook subscriptions older than the published version');
    return fresh.types.has(type);
  }

  private load(orgId: string): Promise<OrgSubscriptions> {
    const running = this.loading.get(orgId);
    if (running) return running;
    const work = this.webhooks.subscriptions(orgId).then((s) => {
      const entry = { version: s.version, types: new Set(s.types), loadedAt: this.clock.now().getTime() };
      const existing = this.orgs.get(orgId);
      if (!existing || existing.version <= entry.version) this.orgs.set(orgId, entry);
      return entry;
    });
    this.loading.set(orgId, work);
    return work.finally(() => this.loading.delete(orgId));
  }
}
