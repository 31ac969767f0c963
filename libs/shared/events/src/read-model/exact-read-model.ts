import { DependencyUnavailableError, systemClock, type Clock, type Metrics } from '@igw/kernel';
import type { EventBus } from '../ports/event-bus.port';
import type { VersionBoard } from '../version-board/version-board.port';

/** Who hears of read-model refreshes (the metrics port's one method for them). */
export type ReadModelObserver = Pick<Metrics, 'readModelRefreshed'>;

/** One org's state in a read model, as of one version of the org's counter at its owner. */
export interface OrgState {
  version: number;
}

/** Where a read model's state comes from: its owner (in process, or over internal HTTP). */
export interface ReadModelSource<S extends OrgState> {
  /**
   * The org's state as the owner holds it now (so at least as new as anything the board has
   * published: the owner advances the board after its commit). `held` is what the model holds,
   * for owners that answer incrementally (revocations after `held.version`); undefined for none.
   */
  load(orgId: string, held: S | undefined): Promise<S>;
  /** Every org with state worth holding before the first call (warm start). */
  orgs(): Promise<readonly string[]>;
}

export interface ExactReadModelOptions<S extends OrgState> {
  /** What the model holds, for logs: `intent cards`. */
  name: string;
  /** Who owns the state, named in 503s: `policy-registry`. */
  owner: string;
  board: VersionBoard;
  /** The org's counter on the board. */
  key(orgId: string): string;
  source: ReadModelSource<S>;
  /** A copy older than this is loaded again even when the board says it is current (a safety net). */
  maxAgeMs?: number;
  clock?: Clock;
}

/** What a module holding read models is given: the bus that feeds them, the board they are exact against, the tracker that reports them loaded. */
export interface ReadModelHostOptions {
  /** The event bus; it feeds the read models (among what else the module consumes). */
  bus: EventBus;
  /** Where the owners advance each org's counters (memory in embedded, Redis in distributed). */
  versionBoard: VersionBoard;
  /** Tracks this process's read models for readiness (they are loaded at start). */
  readModels?: ReadModelTracker;
}

export interface ReadModelLogger {
  warn(message: string): void;
  log(message: string): void;
}

interface Held<S> {
  state: S;
  loadedAt: number;
}

/**
 * One mechanism for every in-memory copy of another service's state that must still be exact
 * (DESIGN 4): intent cards and revocations in the decision proxy, active intentions in the
 * evaluator, webhook subscriptions in the dispatcher.
 *
 * - **Exact per call**: the owner advances the org's counter on the version board after each
 *   commit and before it answers; a call reads the board and gets the org's state at that version
 *   or newer — from memory when the model is current (synchronously: no promise on the hot path),
 *   otherwise by loading the owner's snapshot while the call waits. An owner that cannot be reached
 *   while the model is behind fails the call closed (503), never answers from a stale copy.
 * - **Events** move an org forward one version at a time (`applyNext`); anything else waits for
 *   a load.
 * - **Never empty by mistake**: an org the model has not loaded is loaded, whatever the board says
 *   (a restarted process, or a board that lost its values, reads 0 — which is no reason to assume
 *   "nothing revoked").
 * - **Rebuilt at start** (`warm`): every org the owner has state for is loaded before the process
 *   reports ready.
 */
export class ExactReadModel<S extends OrgState> {
  private readonly held = new Map<string, Held<S>>();
  private readonly loading = new Map<string, Promise<S>>();
  private readonly clock: Clock;
  private warmed = false;
  private warming: Promise<void> | null = null;
  private observer: ReadModelObserver | undefined;

  constructor(private readonly options: ExactReadModelOptions<S>) {
    this.clock = options.clock ?? systemClock;
  }

  /**
   * The usual construction, read as one sentence: `what` of `owner`, counted on `board` under
   * `key`, loaded from `source`; `extra` for the optional age limit.
   */
  static over<S extends OrgState>(
    board: VersionBoard,
    key: (orgId: string) => string,
    label: { name: string; owner: string },
    source: ReadModelSource<S>,
    extra: Pick<ExactReadModelOptions<S>, 'maxAgeMs' | 'clock'> = {},
  ): ExactReadModel<S> {
    return new ExactReadModel<S>({ ...label, board, key, source, ...extra });
  }

  /** Told of every load from the owner and every event applied (metrics). */
  observe(observer: ReadModelObserver): void {
    this.observer = observer;
  }

  get name(): string {
    return this.options.name;
  }

  /** True once `warm` has loaded every org the owner listed. */
  get ready(): boolean {
    return this.warmed;
  }

  /** Reads the org's counter on the board, then the state at that version (see `at`). */
  async current(orgId: string): Promise<S> {
    let version: number;
    try {
      version = await this.options.board.current(this.options.key(orgId));
    } catch (err) {
      throw new DependencyUnavailableError('version board', err);
    }
    return this.at(orgId, version);
  }

  /** The org's state at `boardVersion` or newer: synchronous when held, a promise when it must be loaded. */
  at(orgId: string, boardVersion: number): S | Promise<S> {
    const held = this.held.get(orgId);
    if (held && held.state.version >= boardVersion && this.fresh(held)) return held.state;
    return this.loadAtLeast(orgId, boardVersion);
  }

  /** The state held for the org, without asking anyone (tests, diagnostics). */
  peek(orgId: string): S | undefined {
    return this.held.get(orgId)?.state;
  }

  /**
   * An event carrying the org's change number `version`: applied (by `apply`, which mutates the
   * held state) only when it is the next one; an event for an org not held, a repeat or a gap is
   * ignored — the board makes the next call load. Returns whether it was applied.
   */
  applyNext(orgId: string, version: number, apply: (state: S) => void): boolean {
    const held = this.held.get(orgId);
    if (!held || version !== held.state.version + 1) return false;
    apply(held.state);
    held.state.version = version;
    this.observer?.readModelRefreshed(this.options.name, 'event');
    return true;
  }

  /** Loads every org the owner lists (a few at a time); rejects when the owner cannot be read. */
  warm(concurrency = 8): Promise<void> {
    this.warming ??= (async () => {
      try {
        let orgs: string[];
        try {
          orgs = [...(await this.options.source.orgs())];
        } catch (err) {
          throw err instanceof DependencyUnavailableError ? err : new DependencyUnavailableError(this.options.owner, err);
        }
        const next = () => orgs.shift();
        const worker = async () => {
          for (let org = next(); org !== undefined; org = next()) await this.loadAtLeast(org, 0);
        };
        await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
        this.warmed = true;
      } finally {
        this.warming = null;
      }
    })();
    return this.warming;
  }

  /**
   * `warm` until it succeeds, in the background (an owner down at start must not stop this
   * process from starting: it reports not ready and calls fail closed meanwhile). Resolves when warm.
   */
  async warmUntilReady(logger?: ReadModelLogger, retryMs = 1000): Promise<void> {
    for (let attempt = 1; !this.warmed; attempt++) {
      try {
        await this.warm();
        if (attempt > 1) logger?.log(`${this.options.name} loaded from ${this.options.owner}`);
      } catch (err) {
        if (attempt === 1)
          logger?.warn(`${this.options.name} cannot be loaded from ${this.options.owner} yet; not ready, retrying: ${(err as Error)?.message ?? String(err)}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(retryMs * attempt, 10_000)).unref?.());
      }
    }
  }

  private fresh(held: Held<S>): boolean {
    return this.options.maxAgeMs === undefined || this.clock.now().getTime() - held.loadedAt < this.options.maxAgeMs;
  }

  private async loadAtLeast(orgId: string, atLeast: number): Promise<S> {
    // A load already running may have read before the change this call was told about: once more.
    let state = await this.load(orgId);
    if (state.version < atLeast) state = await this.load(orgId);
    if (state.version < atLeast) throw new DependencyUnavailableError(`${this.options.owner} (${this.options.name} older than the published version)`);
    return state;
  }

  private load(orgId: string): Promise<S> {
    const running = this.loading.get(orgId);
    if (running) return running;
    const work = (async () => {
      let state: S;
      try {
        state = await this.options.source.load(orgId, this.held.get(orgId)?.state);
      } catch (err) {
        if (err instanceof DependencyUnavailableError) throw err;
        throw new DependencyUnavailableError(this.options.owner, err);
      }
      const existing = this.held.get(orgId);
      // An event may have moved the held state past what this load read: keep the newer one.
      if (existing && existing.state.version > state.version) return existing.state;
      this.held.set(orgId, { state, loadedAt: this.clock.now().getTime() });
      this.observer?.readModelRefreshed(this.options.name, 'load');
      return state;
    })();
    this.loading.set(orgId, work);
    return work.finally(() => this.loading.delete(orgId));
  }
}

/** The read models of one process, for readiness: ready once every one of them is warm. */
export class ReadModelTracker {
  private readonly models: ExactReadModel<OrgState>[] = [];

  /** `observer` (the process's metrics) is told of every refresh of every tracked model. */
  constructor(private readonly observer?: ReadModelObserver) {}

  track<S extends OrgState>(model: ExactReadModel<S>): ExactReadModel<S> {
    if (this.observer) model.observe(this.observer);
    this.models.push(model as unknown as ExactReadModel<OrgState>);
    return model;
  }

  get ready(): boolean {
    return this.models.every((m) => m.ready);
  }

  /** The models not warm yet (for the readiness body and logs). */
  pending(): string[] {
    return this.models.filter((m) => !m.ready).map((m) => m.name);
  }

  /** Resolves once every tracked model is warm, polling (models are warmed by their modules). */
  async whenReady(pollMs = 50): Promise<void> {
    while (!this.ready) await new Promise((resolve) => setTimeout(resolve, pollMs));
  }

  /** A readiness check named `read_models` (the shape of ReadinessCheck in @igw/http). */
  check(): { name: string; check(): Promise<boolean> } {
    return { name: 'read_models', check: async () => this.ready };
  }
}
