import { mkdirSync, openSync, closeSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeSync, existsSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { DependencyUnavailableError } from '@igw/kernel';
import type { DecisionRecord } from '../../domain';
import type { DecisionJournal, DecisionRepository } from '../../application/ports/decision.repository.port';

export interface FileDecisionJournalOptions {
  /** A directory this process alone writes (locked while open). */
  dir: string;
  /** How often the drainer moves journaled decisions into the repository. */
  drainIntervalMs?: number;
  /** Most decisions one drain transaction writes. */
  drainBatch?: number;
  /** A segment larger than this is closed and a new one started (deleted once drained). */
  segmentBytes?: number;
  /**
   * Most decisions held undrained (the repository unreachable for long): beyond it `append`
   * rejects (503), rather than grow memory and disk without bound.
   */
  maxUndrained?: number;
}

interface Waiter {
  record: DecisionRecord;
  line: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Segment {
  seq: number;
  path: string;
  bytes: number;
}

/**
 * Lock files held by journals of this process. The lock file names a pid, and a lock naming this
 * process's own pid is taken over (a restarted container often reuses the pid of the one that
 * crashed); this set tells that apart from a journal of this very process that still holds it.
 */
const heldLocks = new Set<string>();
/** A lock's owner touches it this often; one untouched for LOCK_STALE_MS is taken over. */
const LOCK_HEARTBEAT_MS = 5_000;
const LOCK_STALE_MS = 30_000;

const SEGMENT = /^segment-(\d{12})\.ndjson$/;
const segmentName = (seq: number) => `segment-${String(seq).padStart(12, '0')}.ndjson`;

const reviveRecord = (raw: Record<string, unknown>): DecisionRecord => ({
  ...(raw as unknown as DecisionRecord),
  createdAt: new Date(String(raw['createdAt'])),
  reviewedAt: raw['reviewedAt'] ? new Date(String(raw['reviewedAt'])) : null,
});

/**
 * Decisions made durable on local disk before they are answered, then moved into the database in
 * the background (DESIGN 6.9 "every decision is recorded", without a database round trip on the
 * decision path). Append is group commit: the lines that arrive while one `fdatasync` runs are
 * written and synced together by the next, so a sync (~0.2 ms here) is shared by every call of
 * that moment. The drainer writes batches through the repository, which is idempotent on
 * `decision_id`, and a segment file is deleted only when every decision in it is stored. On start
 * the segments left by a crash are replayed into the repository first; a torn last line (a write
 * cut by the crash, never acknowledged) is skipped.
 */
export class FileDecisionJournal implements DecisionJournal {
  private readonly logger = new Logger('DecisionJournal');
  private readonly drainIntervalMs: number;
  private readonly drainBatch: number;
  private readonly segmentBytes: number;
  private readonly maxUndrained: number;
  private readonly lockPath: string;

  private handle: FileHandle | null = null;
  private segment: Segment | null = null;
  /** Closed segments not yet fully drained, oldest first. */
  private readonly closedSegments: Segment[] = [];
  private queue: Waiter[] = [];
  private writing: Promise<void> | null = null;
  /** Synced, not yet in the repository: [segment seq, record], oldest first. */
  private undrained: { seq: number; record: DecisionRecord }[] = [];
  private drainTimer: NodeJS.Timeout | null = null;
  private draining: Promise<boolean> | null = null;
  private drainFailures = 0;
  private retryAt = 0;
  private closed = false;
  private locked = false;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly repository: DecisionRepository,
    private readonly options: FileDecisionJournalOptions,
  ) {
    this.drainIntervalMs = options.drainIntervalMs ?? 50;
    this.drainBatch = options.drainBatch ?? 1000;
    this.segmentBytes = options.segmentBytes ?? 16 * 1024 * 1024;
    this.maxUndrained = options.maxUndrained ?? 100_000;
    this.lockPath = resolve(options.dir, 'journal.lock');
  }

  /** Locks the directory, replays what a previous process left, opens a new segment. */
  async start(): Promise<void> {
    mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
    this.lock();
    try {
      const leftover = this.segmentFiles();
      let replayed = 0;
      for (const s of leftover) {
        const records = this.readSegment(s.path);
        for (let i = 0; i < records.length; i += this.drainBatch) await this.repository.saveAll(records.slice(i, i + this.drainBatch));
        rmSync(s.path, { force: true });
        replayed += records.length;
      }
      if (replayed > 0) this.logger.log(`replayed ${replayed} journaled decision(s) into the database`);
      const next = (leftover.at(-1)?.seq ?? 0) + 1;
      await this.openSegment(next);
    } catch (err) {
      // Not started: the directory is free again (what was left stays on disk for the next try).
      this.unlock();
      throw err;
    }
    this.drainTimer = setInterval(() => void this.drain(), this.drainIntervalMs);
    this.drainTimer.unref();
  }

  append(record: DecisionRecord): Promise<void> {
    if (this.closed || this.handle === null) return Promise.reject(new DependencyUnavailableError('decision journal is closed'));
    if (this.undrained.length + this.queue.length >= this.maxUndrained) {
      return Promise.reject(new DependencyUnavailableError(`decision journal holds ${this.maxUndrained} undrained decisions (database unreachable?)`));
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ record, line: `${JSON.stringify(record)}\n`, resolve, reject });
      this.writing ??= this.writeLoop();
    });
  }

  /** Decisions journaled but not yet in the repository (for health and tests). */
  get pending(): number {
    return this.undrained.length;
  }

  /** Moves everything journaled so far into the repository; rejects if the repository fails. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    while (this.undrained.length > 0) {
      // A drain already running may be a back-off no-op: wait for it, then force one.
      if (this.draining) await this.draining;
      if (!(await this.drain(true))) throw new DependencyUnavailableError('decision journal could not drain into the database');
    }
  }

  /** Graceful stop: waits for the writes, drains what it can, keeps the rest on disk for the next start. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.drainTimer) clearInterval(this.drainTimer);
    while (this.writing) await this.writing;
    try {
      await this.flush();
    } catch (err) {
      this.logger.warn(`${this.undrained.length} decision(s) stay journaled for the next start: ${(err as Error).message}`);
    }
    await this.handle?.close().catch(() => undefined);
    this.handle = null;
    if (this.undrained.length === 0) {
      for (const s of [...this.closedSegments, ...(this.segment ? [this.segment] : [])]) rmSync(s.path, { force: true });
    }
    this.unlock();
  }

  private async writeLoop(): Promise<void> {
    // The calls of this turn of the event loop share the first write.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        await this.writeBatch(batch);
      }
    } finally {
      this.writing = null;
    }
  }

  private async writeBatch(batch: Waiter[]): Promise<void> {
    const segment = this.segment!;
    const data = batch.map((w) => w.line).join('');
    try {
      await this.handle!.write(data);
      await this.handle!.datasync();
    } catch (err) {
      this.logger.error(`decision journal write failed: ${(err as Error).message}`);
      const failure = new DependencyUnavailableError('decision journal', err);
      for (const w of batch) w.reject(failure);
      // Part of the batch may be on disk: never append after it (the next line would be glued to
      // a torn one and lost on replay). The torn tail stays the last line of the closed segment,
      // which replay skips.
      await this.rotate().catch((e: Error) => this.logger.error(`decision journal cannot start a new segment: ${e.message}`));
      return;
    }
    segment.bytes += Buffer.byteLength(data);
    for (const w of batch) {
      this.undrained.push({ seq: segment.seq, record: w.record });
      w.resolve();
    }
    if (segment.bytes >= this.segmentBytes) await this.rotate();
  }

  private async rotate(): Promise<void> {
    const old = this.segment!;
    await this.handle!.close();
    this.closedSegments.push(old);
    await this.openSegment(old.seq + 1);
  }

  private async openSegment(seq: number): Promise<void> {
    const path = join(this.options.dir, segmentName(seq));
    this.handle = await open(path, 'a', 0o600);
    this.segment = { seq, path, bytes: 0 };
  }

  /** One drain at a time; `force` ignores the back-off (flush, close). Resolves false when a write failed. */
  private drain(force = false): Promise<boolean> {
    this.draining ??= this.drainOnce(force).finally(() => (this.draining = null));
    return this.draining;
  }

  private async drainOnce(force: boolean): Promise<boolean> {
    if (this.undrained.length === 0) return true;
    // Back off while the database is away (100 ms doubling to 5 s); decisions keep being journaled.
    if (!force && Date.now() < this.retryAt) return true;
    const batch = this.undrained.slice(0, this.drainBatch);
    try {
      await this.repository.saveAll(batch.map((b) => b.record));
    } catch (err) {
      if (this.drainFailures === 0) this.logger.warn(`decisions wait in the journal: ${(err as Error).message}`);
      this.drainFailures++;
      this.retryAt = Date.now() + Math.min(100 * 2 ** this.drainFailures, 5000);
      return false;
    }
    if (this.drainFailures > 0) this.logger.log('decision journal drains into the database again');
    this.drainFailures = 0;
    this.undrained.splice(0, batch.length);
    const oldestPending = this.undrained[0]?.seq ?? Number.POSITIVE_INFINITY;
    while (this.closedSegments.length > 0 && this.closedSegments[0]!.seq < oldestPending) rmSync(this.closedSegments.shift()!.path, { force: true });
    return true;
  }

  private segmentFiles(): Segment[] {
    return readdirSync(this.options.dir)
      .map((name) => SEGMENT.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ seq: Number(m[1]), path: join(this.options.dir, m[0]), bytes: 0 }))
      .sort((a, b) => a.seq - b.seq);
  }

  private readSegment(path: string): DecisionRecord[] {
    const out: DecisionRecord[] = [];
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (line === '') return;
      try {
        out.push(reviveRecord(JSON.parse(line) as Record<string, unknown>));
      } catch {
        // Only the last line can be torn (append-only, synced in order); anything else is damage worth a word.
        if (i < lines.length - 2) this.logger.warn(`skipping an unreadable line ${i + 1} of ${path}`);
      }
    });
    return out;
  }

  /**
   * One process per directory: a lock file naming the owner (host and pid). A dead owner's lock
   * on this host is taken over (also our own pid after a container restart, unless a journal of
   * this process holds it). An owner on another host (a volume shared by replicas, or a container
   * recreated under a new name) cannot be asked, so its lock counts as held while its owner keeps
   * touching it (every LOCK_HEARTBEAT_MS) and as stale once it has not for LOCK_STALE_MS.
   */
  private lock(): void {
    const inUse = (owner: string) => new Error(`decision journal ${this.options.dir} is in use by ${owner}; give each replica its own DECISION_JOURNAL_DIR`);
    if (heldLocks.has(this.lockPath)) throw inUse(`this process (${process.pid})`);
    const me = `${hostname()}:${process.pid}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(this.lockPath, 'wx', 0o600);
        writeSync(fd, me);
        closeSync(fd);
        heldLocks.add(this.lockPath);
        this.locked = true;
        this.heartbeat = setInterval(() => {
          const now = new Date();
          try {
            utimesSync(this.lockPath, now, now);
          } catch {
            // Gone or unwritable: the next start decides; the journal itself keeps working.
          }
        }, LOCK_HEARTBEAT_MS);
        this.heartbeat.unref();
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const text = existsSync(this.lockPath) ? readFileSync(this.lockPath, 'utf8').trim() : '';
        const m = /^(?:(.*):)?(\d+)$/.exec(text);
        const host = m?.[1];
        const pid = m ? Number(m[2]) : NaN;
        if (host !== undefined && host !== hostname()) {
          const touched = existsSync(this.lockPath) ? statSync(this.lockPath).mtimeMs : 0;
          if (Date.now() - touched < LOCK_STALE_MS) throw inUse(text);
        }
        if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw inUse(text);
        rmSync(this.lockPath, { force: true });
      }
    }
    throw new Error(`cannot lock the decision journal ${this.options.dir}`);
  }

  /** Releases the lock this journal holds (and no other's: a journal refused the directory has none). */
  private unlock(): void {
    if (!this.locked) return;
    this.locked = false;
    if (this.heartbeat) clearInterval(this.heartbeat);
    heldLocks.delete(this.lockPath);
    rmSync(this.lockPath, { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
