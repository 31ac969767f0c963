import { Logger } from '@nestjs/common';
import type { VersionBoard } from '@igw/events';

const logger = new Logger('mandate-issuer');

/**
 * Tells the version board about a committed revocation, before the request that made it is
 * answered, so every verifier's next call sees that its revocation set is stale. The revocation is
 * committed whatever happens here: when the board cannot be written the request still succeeds
 * and a warning is logged. Verifiers are not left wrong for long: the `mandate.revoked` event
 * carries the same `revocation_version` and reaches them through the bus, and the org's next
 * revocation advances the board past it (the board never goes down).
 */
export async function advanceBoard(board: VersionBoard | null | undefined, key: string, version: number): Promise<void> {
  if (!board) return;
  try {
    await board.advance(key, version);
  } catch (err) {
    logger.warn(`version board not advanced (${key} → ${version}); verifiers catch up from the event: ${(err as Error)?.message ?? String(err)}`);
  }
}
