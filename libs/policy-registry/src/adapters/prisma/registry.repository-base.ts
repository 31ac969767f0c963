import { Inject, Injectable, Optional } from '@nestjs/common';
import { OutboxWriter, rethrowUnavailable } from '@igw/persistence';
import { announceVersion, OUTBOX_NOTIFIER, VERSION_BOARD, type OutboxNotifier, type VersionBoard } from '@igw/events';
import { Prisma } from './generated/client';
import { REGISTRY_PRISMA, REGISTRY_SCHEMA_NAME, type RegistryPrisma } from './registry-prisma.client';

/**
 * What the registry's repositories share: the Prisma client, the schema's outbox written in each
 * transaction, and after a commit the relay's nudge and the org's counter on the version board.
 */
@Injectable()
export abstract class RegistryRepository {
  protected readonly outbox: OutboxWriter;

  constructor(
    @Inject(REGISTRY_PRISMA) protected readonly prisma: RegistryPrisma,
    @Inject(REGISTRY_SCHEMA_NAME) protected readonly schema: string,
    @Inject(OUTBOX_NOTIFIER) private readonly notifier: OutboxNotifier,
    /** Advanced to the org's new counter after each commit, before the method returns. */
    @Optional() @Inject(VERSION_BOARD) private readonly board?: VersionBoard | null,
  ) {
    this.outbox = new OutboxWriter(schema);
  }

  /** After a commit: wakes the relay, then announces the org's new counter under `key`. */
  protected async committed(key: string, version: number): Promise<void> {
    this.notifier.nudge();
    await announceVersion(this.board, key, version);
  }

  /**
   * Runs `read` in one REPEATABLE READ transaction: its reads see the same snapshot, so a set read
   * with the org's counter is exactly the one after that change number (under READ COMMITTED a
   * commit could land between them).
   */
  protected consistentRead<T>(read: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(read, { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead }).catch(rethrowUnavailable);
  }

  /** The orgs whose `counter` ever moved, in id order. */
  protected async orgIdsWith(counter: 'cardsVersion' | 'intentionsVersion'): Promise<string[]> {
    const rows = await this.prisma.orgVersion
      .findMany({ where: { [counter]: { gt: 0 } }, select: { orgId: true }, orderBy: { orgId: 'asc' } })
      .catch(rethrowUnavailable);
    return rows.map((r) => r.orgId);
  }
}
