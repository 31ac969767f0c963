import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RecordRefusedError } from '@igw/kernel';
import type { SqlDeadLetters } from '@igw/persistence';
import type { DecisionRecord } from '../../domain';

const SEGMENT = /^segment-\d{12}\.ndjson$/;

export interface LegacyReplayResult {
  stored: number;
  setAside: number;
  /** False when the store went away mid-way: the files stay for the next start. */
  complete: boolean;
}

/**
 * Versions before 0.7 journaled each decision on local disk before answering and drained the
 * journal into the database later; a crash could leave answered decisions only there. This stores
 * what such a journal left (idempotent on `decision_id`, so a partial earlier drain is harmless)
 * and then removes it. It never fails a start: a line that cannot be read and a record the store
 * refuses are set aside as dead letters; an outage leaves the files for the next start.
 */
export async function replayLegacyJournal(
  dir: string,
  store: { record(record: DecisionRecord): Promise<void> },
  deadLetters: SqlDeadLetters,
): Promise<LegacyReplayResult> {
  const result: LegacyReplayResult = { stored: 0, setAside: 0, complete: true };
  if (!existsSync(dir)) return result;
  const segments = readdirSync(dir)
    .filter((name) => SEGMENT.test(name))
    .sort();
  for (const name of segments) {
    const lines = readFileSync(join(dir, name), 'utf8').split('\n');
    const records: DecisionRecord[] = [];
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue;
      try {
        records.push(revive(JSON.parse(line) as Record<string, unknown>));
      } catch (err) {
        // The last line may be torn by the crash (never acknowledged); anything else is damage.
        if (i < lines.length - 2) {
          result.setAside++;
          await deadLetters.add({
            kind: 'decision',
            recordId: null,
            orgId: null,
            reason: `unreadable line ${i + 1} of legacy journal ${name}: ${(err as Error).message}`,
            payload: line,
          });
        }
      }
    }
    const outcomes = await Promise.allSettled(records.map((r) => store.record(r)));
    for (const o of outcomes) {
      if (o.status === 'fulfilled') result.stored++;
      else if (o.reason instanceof RecordRefusedError) result.setAside++;
      // An outage (or anything not this record's fault): the file stays for the next start.
      else result.complete = false;
    }
    if (!result.complete) return result;
    rmSync(join(dir, name), { force: true });
  }
  rmSync(join(dir, 'journal.lock'), { force: true });
  return result;
}

function revive(raw: Record<string, unknown>): DecisionRecord {
  if (typeof raw['decisionId'] !== 'string' || typeof raw['orgId'] !== 'string') throw new Error('not a decision record');
  return {
    ...(raw as unknown as DecisionRecord),
    createdAt: new Date(String(raw['createdAt'])),
    reviewedAt: raw['reviewedAt'] ? new Date(String(raw['reviewedAt'])) : null,
  };
}
