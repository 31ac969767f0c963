/**
 * The bookkeeping of a database stand-in for batching-writer specs: it sees each transaction's
 * batch of ids, `refuse` decides which batches fail, and `hold` keeps the next transactions open
 * until `release`. A subclass reads the ids out of the statements and calls `settle`.
 */
export abstract class GatedFakeDatabase {
  attempts: string[][] = [];
  committed: string[][] = [];
  refuse: (ids: string[]) => unknown = () => null;
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;

  constructor(readonly schema: string) {}

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.gate = null;
    this.open?.();
  }

  /** Records the attempt, waits while held, then throws what `refuse` gives or records the commit. */
  protected async settle(ids: string[]): Promise<void> {
    this.attempts.push(ids);
    if (this.gate) await this.gate;
    const error = this.refuse(ids);
    if (error) throw error;
    this.committed.push(ids);
  }
}
