import type { AuthEpoch } from '../../application/ports/auth-epoch.port';

/** Embedded mode: one process, so the epoch is a number in memory. */
export class MemoryAuthEpoch implements AuthEpoch {
  private value = 0;
  async current(): Promise<number> {
    return this.value;
  }
  async bump(): Promise<void> {
    this.value++;
  }
}
