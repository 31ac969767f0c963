import { Logger } from '@nestjs/common';
import type { VersionBoard } from '@igw/events';
import { DependencyUnavailableError } from '@igw/kernel';

const logger = new Logger('mandate-issuer');

/**
 * Tells the version board about a committed revocation, before the request that made it is
 * answered, so every verifier's next call sees that its revocation set is stale. When the board
 * cannot be written the revocation is committed but the request fails with 503: a revoke that
 * verifiers may not see yet must not be reported as done. Calling revoke again re-announces the
 * mandate's number (the repository does that for a mandate already revoked), and the
 * `mandate.revoked` event carries it to the verifiers meanwhile.
 */
export async function advanceBoard(board: VersionBoard | null | undefined, key: string, version: number): Promise<void> {
  if (!board) return;
  try {
    await board.advance(key, version);
  } catch (err) {
    logger.warn(`version board not advanced (${key} → ${version}); the caller is told to retry: ${(err as Error)?.message ?? String(err)}`);
    throw new DependencyUnavailableError('version board', err);
  }
}
