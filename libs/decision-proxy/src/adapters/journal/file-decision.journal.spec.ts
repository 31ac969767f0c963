import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DependencyUnavailableError } from '@igw/kernel';
import type { DecisionRecord } from '../../domain';
import type { DecisionRepository, ResolveReviewResult } from '../../application/ports/decision.repository.port';
import { FileDecisionJournal, type FileDecisionJournalOptions } from './file-decision.journal';

/** In memory, idempotent on decisionId (like the SQL repository); can be told to fail. */
class FakeDecisionRepository implements DecisionRepository {
  readonly stored = new Map<string, DecisionRecord>();
  /** How many times each decision id reached a successful saveAll (duplicates included). */
  readonly saves = new Map<string, number>();
  saveAllCalls = 0;
  failing = false;

  async saveAll(records: readonly DecisionRecord[]): Promise<void> {
    this.saveAllCalls++;
    if (this.failing) throw new Error('database unreachable');
    for (const r of records) {
      this.saves.set(r.decisionId, (this.saves.get(r.decisionId) ?? 0) + 1);
      if (!this.stored.has(r.decisionId)) this.stored.set(r.decisionId, { ...r });
    }
  }
  async listReviews(): Promise<DecisionRecord[]> {
    return [];
  }
  async findByDecisionId(_orgId: string, id: string): Promise<DecisionRecord | null> {
    return this.stored.get(id) ?? null;
  }
  async resolveReview(): Promise<ResolveReviewResult> {
    return { ok: false, reason: 'not_found' };
  }
  ids(): string[] {
    return [...this.stored.keys()].sort();
  }
}

let seq = 0;
function record(over: Partial<DecisionRecord> = {}): DecisionRecord {
  const decisionId = over.decisionId ?? `dec_${String(++seq).padStart(4, '0')}`;
  return {
    decisionId,
    orgId: 'org_1',
    keyId: 'key_1',
    kind: 'allow',
    ruleId: null,
    stage: 'default',
    reason: null,
    shadowKind: null,
    decision: { kind: 'allow', decision_id: decisionId },
    credId: 'mnd_1',
    intentId: 'crm-card',
    promptId: 'prm_1',
    actor: 'agent-1',
    audience: 'crm-api',
    surface: 'sdk',
    operation: 'crm.contacts.read',
    targetResource: 'crm://contacts/42',
    argumentsSha256: 'a'.repeat(64),
    approvalRequestId: null,
    reviewId: null,
    reviewStatus: null,
    reviewedAt: null,
    reviewedByKeyId: null,
    reviewNote: null,
    createdAt: new Date('2026-11-22T12:00:00.000Z'),
    ...over,
  };
}

const SEGMENT = /^segment-\d{12}\.ndjson$/;
const segmentName = (n: number) => `segment-${String(n).padStart(12, '0')}.ndjson`;

/** A pid no process has (checked, so the test does not depend on luck). */
function deadPid(): number {
  for (let pid = 999_999; pid < 1_100_000; pid++) {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
  throw new Error('no free pid found');
}

async function eventually(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('FileDecisionJournal', () => {
  let root: string;
  let dir: string;
  let repo: FakeDecisionRepository;
  const opened: FileDecisionJournal[] = [];

  /** A journal on `dir` whose background drain never runs on its own (tests flush explicitly). */
  const journal = (options: Partial<FileDecisionJournalOptions> = {}, repository: DecisionRepository = repo): FileDecisionJournal => {
    const j = new FileDecisionJournal(repository, { dir, drainIntervalMs: 60_000, ...options });
    opened.push(j);
    return j;
  };
  const segments = (d = dir) => readdirSync(d).filter((n) => SEGMENT.test(n)).sort();
  const linesOnDisk = (d = dir) =>
    segments(d).flatMap((n) =>
      readFileSync(join(d, n), 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
    );

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'decision-journal-'));
    dir = join(root, 'journal');
    repo = new FakeDecisionRepository();
  });

  afterEach(async () => {
    repo.failing = false;
    for (const j of opened.splice(0)) await j.close();
    rmSync(root, { recursive: true, force: true });
  });

  describe('append', () => {
    it('a failed write rejects (503) and the next decisions go to a new segment, so a torn line never swallows them', async () => {
      const j = journal();
      await j.start();
      await j.append(record());
      const handle = (j as unknown as { handle: { write: (d: string) => Promise<unknown> } }).handle;
      const write = handle.write.bind(handle);
      handle.write = async (d: string) => {
        await write(d.slice(0, 17)); // part of the line reaches the disk, then the device fails
        throw new Error('EIO');
      };
      await expect(j.append(record())).rejects.toBeInstanceOf(DependencyUnavailableError);
      const after = record();
      await j.append(after);
      expect(segments()).toEqual([segmentName(1), segmentName(2)]);
      await j.flush();
      expect(repo.stored.has(after.decisionId)).toBe(true);
      expect(repo.stored.size).toBe(2);
    });

    it('resolves once the line is on disk, before the repository has it', async () => {
      const j = journal();
      await j.start();
      const r = record();
      await j.append(r);
      const lines = linesOnDisk();
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ decisionId: r.decisionId, createdAt: '2026-11-22T12:00:00.000Z' });
      expect(j.pending).toBe(1);
      expect(repo.stored.size).toBe(0);
    });

    it('creates the directory and locks it with this process id', async () => {
      const j = journal();
      await j.start();
      expect(readFileSync(join(dir, 'journal.lock'), 'utf8')).toBe(`${hostname()}:${process.pid}`);
      expect(segments()).toEqual([segmentName(1)]);
    });

    it('writes the calls of one moment together, one line each', async () => {
      const j = journal();
      await j.start();
      const records = Array.from({ length: 25 }, () => record());
      await Promise.all(records.map((r) => j.append(r)));
      expect(linesOnDisk().map((l) => (JSON.parse(l) as DecisionRecord).decisionId)).toEqual(records.map((r) => r.decisionId));
      expect(j.pending).toBe(25);
    });

    it('rejects before start and after close with DependencyUnavailableError', async () => {
      const j = journal();
      await expect(j.append(record())).rejects.toBeInstanceOf(DependencyUnavailableError);
      await j.start();
      await j.close();
      await expect(j.append(record())).rejects.toBeInstanceOf(DependencyUnavailableError);
    });

    it('rejects with DependencyUnavailableError once maxUndrained decisions wait (repository away)', async () => {
      repo.failing = true;
      const j = journal({ maxUndrained: 3 });
      await j.start();
      await j.append(record());
      await j.append(record());
      // Queued (not yet written) decisions count too.
      const third = j.append(record());
      await expect(j.append(record())).rejects.toBeInstanceOf(DependencyUnavailableError);
      await third;
      expect(j.pending).toBe(3);
      await expect(j.append(record())).rejects.toThrow(/3 undrained decisions/);
      expect(linesOnDisk()).toHaveLength(3);

      // Room again once the repository takes them.
      repo.failing = false;
      await j.flush();
      await expect(j.append(record())).resolves.toBeUndefined();
    });
  });

  describe('drain', () => {
    it('flush() moves every journaled decision into the repository', async () => {
      const j = journal();
      await j.start();
      const records = [record(), record(), record()];
      for (const r of records) await j.append(r);
      await j.flush();
      expect(repo.ids()).toEqual(records.map((r) => r.decisionId).sort());
      expect(j.pending).toBe(0);
      const stored = repo.stored.get(records[0]!.decisionId)!;
      expect(stored.createdAt).toBeInstanceOf(Date);
      expect(stored).toEqual(records[0]);
    });

    it('drains in batches of drainBatch', async () => {
      const j = journal({ drainBatch: 2 });
      await j.start();
      for (let i = 0; i < 5; i++) await j.append(record());
      await j.flush();
      expect(repo.saveAllCalls).toBe(3);
      expect(repo.stored.size).toBe(5);
    });

    it('keeps the decisions while the repository fails and stores them after it recovers', async () => {
      repo.failing = true;
      const j = journal();
      await j.start();
      const records = [record(), record(), record()];
      for (const r of records) await j.append(r);
      await expect(j.flush()).rejects.toBeInstanceOf(DependencyUnavailableError);
      expect(j.pending).toBe(3);
      expect(repo.stored.size).toBe(0);
      expect(linesOnDisk()).toHaveLength(3);

      repo.failing = false;
      await j.flush();
      expect(j.pending).toBe(0);
      expect(repo.ids()).toEqual(records.map((r) => r.decisionId).sort());
      for (const r of records) expect(repo.saves.get(r.decisionId)).toBe(1);
    });

    it('the background drainer gets them into the repository on its own once it recovers', async () => {
      repo.failing = true;
      const j = journal({ drainIntervalMs: 5 });
      await j.start();
      await j.append(record());
      await j.append(record());
      await eventually(() => repo.saveAllCalls >= 1);
      expect(j.pending).toBe(2);
      repo.failing = false;
      await eventually(() => j.pending === 0);
      expect(repo.stored.size).toBe(2);
    });
  });

  describe('one process per directory', () => {
    it('refuses a second journal on the same directory while the first is open, naming DECISION_JOURNAL_DIR', async () => {
      const first = journal();
      await first.start();
      const second = journal();
      await expect(second.start()).rejects.toThrow(/DECISION_JOURNAL_DIR/);
      // The first keeps working, its segment untouched.
      await first.append(record());
      expect(linesOnDisk()).toHaveLength(1);
      expect(segments()).toEqual([segmentName(1)]);
    });

    it('a refused journal closing leaves the holder its lock', async () => {
      const first = journal();
      await first.start();
      const second = journal();
      await expect(second.start()).rejects.toThrow(/in use/);
      await second.close();
      expect(readFileSync(join(dir, 'journal.lock'), 'utf8')).toBe(`${hostname()}:${process.pid}`);
      await expect(journal().start()).rejects.toThrow(/DECISION_JOURNAL_DIR/);
      await first.append(record());
      await first.flush();
      expect(repo.stored.size).toBe(1);
    });

    it('refuses a directory locked by another live process', async () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'journal.lock'), String(process.ppid));
      await expect(journal().start()).rejects.toThrow(/DECISION_JOURNAL_DIR/);
      expect(readFileSync(join(dir, 'journal.lock'), 'utf8')).toBe(String(process.ppid));
    });

    it('takes over a stale lock (its owner is not alive)', async () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'journal.lock'), String(deadPid()));
      const j = journal();
      await j.start();
      expect(readFileSync(join(dir, 'journal.lock'), 'utf8')).toBe(`${hostname()}:${process.pid}`);
      await expect(j.append(record())).resolves.toBeUndefined();
    });

    it('refuses a directory locked by a process on another host while its owner keeps touching the lock; takes it over once stale', async () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'journal.lock'), `another-host:${process.pid}`);
      await expect(journal().start()).rejects.toThrow(/another-host/);
      writeFileSync(join(dir, 'journal.lock'), `another-host:${deadPid()}`);
      await expect(journal().start()).rejects.toThrow(/DECISION_JOURNAL_DIR/);
      const old = new Date(Date.now() - 31_000);
      utimesSync(join(dir, 'journal.lock'), old, old);
      await expect(journal().start()).resolves.toBeUndefined();
      expect(readFileSync(join(dir, 'journal.lock'), 'utf8')).toBe(`${hostname()}:${process.pid}`);
    });

    it('takes over a lock naming this host and pid when no journal of this process holds it (a restarted container)', async () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'journal.lock'), `${hostname()}:${process.pid}`);
      await expect(journal().start()).resolves.toBeUndefined();
    });

    it('takes over a lock naming this pid when no journal of this process holds it (a restarted container reusing the pid)', async () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'journal.lock'), String(process.pid));
      const j = journal();
      await expect(j.start()).resolves.toBeUndefined();
    });

    it('lets the directory be opened again after close', async () => {
      const first = journal();
      await first.start();
      await first.close();
      expect(existsSync(join(dir, 'journal.lock'))).toBe(false);
      await expect(journal().start()).resolves.toBeUndefined();
    });
  });

  describe('crash replay', () => {
    const writeSegment = (n: number, content: string) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, segmentName(n)), content);
    };

    it('stores what a crashed process left exactly once, deletes its segments and continues after them', async () => {
      const left = [record(), record(), record()];
      writeSegment(2, `${JSON.stringify(left[0])}\n`);
      writeSegment(3, left.slice(1).map((r) => `${JSON.stringify(r)}\n`).join(''));
      writeFileSync(join(dir, 'journal.lock'), String(deadPid()));

      const j = journal();
      await j.start();
      expect(repo.ids()).toEqual(left.map((r) => r.decisionId).sort());
      for (const r of left) expect(repo.saves.get(r.decisionId)).toBe(1);
      expect(repo.stored.get(left[0]!.decisionId)).toEqual(left[0]);
      expect(repo.stored.get(left[0]!.decisionId)!.createdAt).toBeInstanceOf(Date);
      expect(segments()).toEqual([segmentName(4)]);
      expect(j.pending).toBe(0);

      // Nothing replayed is journaled (or stored) a second time.
      await j.close();
      for (const r of left) expect(repo.saves.get(r.decisionId)).toBe(1);
    });

    it('replays the on-disk state of a journal that was never closed (a crash image)', async () => {
      const crashed = journal();
      await crashed.start();
      const records = [record(), record()];
      for (const r of records) await crashed.append(r);
      // The crash image: the directory as the dead process left it, with its lock.
      const image = join(root, 'image');
      mkdirSync(image);
      for (const name of readdirSync(dir)) writeFileSync(join(image, name), readFileSync(join(dir, name)));
      writeFileSync(join(image, 'journal.lock'), String(deadPid()));

      const replayRepo = new FakeDecisionRepository();
      const restarted = new FileDecisionJournal(replayRepo, { dir: image, drainIntervalMs: 60_000 });
      opened.push(restarted);
      await restarted.start();
      expect(replayRepo.ids()).toEqual(records.map((r) => r.decisionId).sort());
      for (const r of records) expect(replayRepo.saves.get(r.decisionId)).toBe(1);
      expect(segments(image)).toEqual([segmentName(2)]);
      expect(readFileSync(join(image, segmentName(2)), 'utf8')).toBe('');
    });

    it('skips a torn last line (a write cut by the crash, never acknowledged)', async () => {
      const whole = [record(), record()];
      const torn = JSON.stringify(record()).slice(0, 40);
      writeSegment(1, `${whole.map((r) => JSON.stringify(r)).join('\n')}\n${torn}`);
      const j = journal();
      await j.start();
      expect(repo.ids()).toEqual(whole.map((r) => r.decisionId).sort());
      expect(segments()).toEqual([segmentName(2)]);
    });

    it('start fails (and leaves the segments) when the repository cannot take the replay', async () => {
      const left = record();
      writeSegment(1, `${JSON.stringify(left)}\n`);
      repo.failing = true;
      const j = new FileDecisionJournal(repo, { dir, drainIntervalMs: 60_000 });
      await expect(j.start()).rejects.toThrow('database unreachable');
      expect(segments()).toEqual([segmentName(1)]);

      // Once the repository is back, a new start replays them.
      repo.failing = false;
      await journal().start();
      expect(repo.ids()).toEqual([left.decisionId]);
    });
  });

  describe('close', () => {
    it('drains and removes the segments and the lock', async () => {
      const j = journal();
      await j.start();
      const records = [record(), record()];
      await Promise.all(records.map((r) => j.append(r)));
      await j.close();
      expect(repo.ids()).toEqual(records.map((r) => r.decisionId).sort());
      expect(readdirSync(dir)).toEqual([]);
    });

    it('waits for writes still in flight', async () => {
      const j = journal();
      await j.start();
      const appended = j.append(record());
      await j.close();
      await expect(appended).resolves.toBeUndefined();
      expect(repo.stored.size).toBe(1);
    });

    it('keeps undrained decisions on disk for the next start when the repository is away', async () => {
      const j = journal();
      await j.start();
      const r = record();
      await j.append(r);
      repo.failing = true;
      await j.close();
      expect(segments()).toEqual([segmentName(1)]);
      expect(existsSync(join(dir, 'journal.lock'))).toBe(false);

      repo.failing = false;
      const next = journal();
      await next.start();
      expect(repo.ids()).toEqual([r.decisionId]);
      expect(segments()).toEqual([segmentName(2)]);
    });

    it('is idempotent', async () => {
      const j = journal();
      await j.start();
      await j.close();
      await expect(j.close()).resolves.toBeUndefined();
    });
  });

  describe('rotation', () => {
    it('starts a new segment past segmentBytes and deletes a closed segment once drained', async () => {
      const j = journal({ segmentBytes: 200 });
      await j.start();
      // Each record is larger than 200 bytes: every write closes its segment.
      const records = [record(), record(), record()];
      for (const r of records) await j.append(r);
      // The segment a write filled is closed right after that write is acknowledged.
      await eventually(() => segments().length === 4);
      expect(segments()).toEqual([1, 2, 3, 4].map(segmentName));
      expect(segments().map((n) => readFileSync(join(dir, n), 'utf8').split('\n').filter(Boolean).length)).toEqual([1, 1, 1, 0]);

      await j.flush();
      expect(repo.stored.size).toBe(3);
      // The closed, fully drained segments are gone; the open one stays.
      expect(segments()).toEqual([segmentName(4)]);
    });

    it('keeps a closed segment while any of its decisions is undrained', async () => {
      const j = journal({ segmentBytes: 200 });
      await j.start();
      repo.failing = true;
      await j.append(record());
      await j.append(record());
      await expect(j.flush()).rejects.toBeInstanceOf(DependencyUnavailableError);
      expect(segments()).toEqual([1, 2, 3].map(segmentName));
      repo.failing = false;
      await j.flush();
      expect(segments()).toEqual([segmentName(3)]);
    });
  });
});
