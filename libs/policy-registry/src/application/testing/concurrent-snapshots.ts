/** A snapshot as the race specs compare it: its version and the sorted ids of its set. */
export interface SnapshotSeen {
  version: number;
  ids: string[];
}

/**
 * Reads snapshots back to back for as long as `write` runs, so a spec can check that each one is
 * exactly the set after its version while changes commit concurrently.
 */
export async function snapshotsDuring(read: () => Promise<SnapshotSeen>, write: () => Promise<void>): Promise<SnapshotSeen[]> {
  const snapshots: SnapshotSeen[] = [];
  let writing = true;
  const reader = (async () => {
    while (writing) snapshots.push(await read());
  })();
  try {
    await write();
  } finally {
    writing = false;
    await reader;
  }
  return snapshots;
}
