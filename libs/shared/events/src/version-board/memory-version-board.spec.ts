import { MemoryVersionBoard } from './memory-version-board';
import { cardsKey, intentionsKey } from './version-board.port';

describe('MemoryVersionBoard', () => {
  it('reads 0 for a key never advanced', async () => {
    expect(await new MemoryVersionBoard().current('nothing')).toBe(0);
  });

  it('only ever moves forward', async () => {
    const board = new MemoryVersionBoard();
    await board.advance('k', 3);
    expect(await board.current('k')).toBe(3);
    await board.advance('k', 2);
    await board.advance('k', 3);
    expect(await board.current('k')).toBe(3);
    await board.advance('k', 7);
    expect(await board.current('k')).toBe(7);
  });

  it('keeps keys apart', async () => {
    const board = new MemoryVersionBoard();
    await board.advance(intentionsKey('org_a'), 5);
    await board.advance(cardsKey('org_a'), 2);
    expect(await board.current(intentionsKey('org_a'))).toBe(5);
    expect(await board.current(cardsKey('org_a'))).toBe(2);
    expect(await board.current(intentionsKey('org_b'))).toBe(0);
  });

  it('ends at the highest of concurrent advances, whatever their order', async () => {
    const board = new MemoryVersionBoard();
    const versions = Array.from({ length: 50 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
    await Promise.all(versions.map((v) => board.advance('k', v)));
    expect(await board.current('k')).toBe(50);
  });

  it('refuses versions that are not non-negative integers', async () => {
    const board = new MemoryVersionBoard();
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) await expect(board.advance('k', bad)).rejects.toThrow(RangeError);
    expect(await board.current('k')).toBe(0);
  });

  it('names the registry counters per org', () => {
    expect(intentionsKey('org_1')).toBe('intentions:org_1');
    expect(cardsKey('org_1')).toBe('cards:org_1');
  });
});
