import { assertBoardVersion } from './assert-version';
import type { VersionBoard } from './version-board.port';

/** Embedded mode: one instance per process, shared by the writer and every reader. */
export class MemoryVersionBoard implements VersionBoard {
  private readonly versions = new Map<string, number>();

  async current(key: string): Promise<number> {
    return this.versions.get(key) ?? 0;
  }

  async advance(key: string, version: number): Promise<void> {
    assertBoardVersion(version);
    if (version > (this.versions.get(key) ?? 0)) this.versions.set(key, version);
  }
}
