import { Logger } from '@nestjs/common';
import { DependencyUnavailableError } from '@igw/kernel';
import type { VersionBoard } from './version-board.port';

const logger = new Logger('VersionBoard');

/**
 * The one way an owner tells the board about a committed change: after the commit, before the
 * request that made it is answered, so every reader's next call sees that its copy is stale.
 *
 * One failure rule, fail closed: when the board cannot be written the change stays committed but
 * the request fails with 503 (`DependencyUnavailableError`). A change that readers may not see
 * yet — a revocation, an archived intention, a narrowed card, a deleted webhook — is never
 * reported as in force. Readers are not left wrong for long either way: the change's event
 * carries the same version to them over the bus, and the next change of the org (or an owner's
 * re-announce on retry) moves the board past it; the board never goes down.
 */
export async function announceVersion(board: VersionBoard | null | undefined, key: string, version: number): Promise<void> {
  if (!board) return;
  try {
    await board.advance(key, version);
  } catch (err) {
    logger.warn(
      `version board not advanced (${key} → ${version}); the change is committed, the caller is told to retry: ${(err as Error)?.message ?? String(err)}`,
    );
    throw new DependencyUnavailableError('version board', err);
  }
}
