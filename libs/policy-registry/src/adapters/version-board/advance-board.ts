import { Logger } from '@nestjs/common';
import type { VersionBoard } from '@igw/events';

const logger = new Logger('policy-registry');

/**
 * Tells the version board about a committed change, before the request that made it is answered,
 * so every reader's next call sees that its cache is stale. The change is committed whatever
 * happens here: when the board cannot be written the request still succeeds and a warning is
 * logged. Readers are not left wrong for long: the change's event carries the same `org_version`
 * and reaches them through the bus, and the next change of the org advances the board past it
 * (the board never goes down, and a reader treats a cache at or above the board as current).
 */
export async function advanceBoard(board: VersionBoard | null | undefined, key: string, version: number): Promise<void> {
  if (!board) return;
  try {
    await board.advance(key, version);
  } catch (err) {
    logger.warn(`version board not advanced (${key} → ${version}); readers catch up from the event: ${(err as Error)?.message ?? String(err)}`);
  }
}
