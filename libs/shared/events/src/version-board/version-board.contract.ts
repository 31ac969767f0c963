import { cardsKey, intentionsKey, type VersionBoard } from './version-board.port';

/**
 * What every VersionBoard must do, run by each implementation's spec (memory, Redis) against a
 * fresh board from `make`. Test-only: nothing in the library imports it.
 */
export function itBehavesAsAVersionBoard(make: () => VersionBoard): void {
  it('reads 0 for a key never advanced', async () => {
    expect(await make().current('nothing')).toBe(0);
  });

  it('only ever moves forward', async () => {
    const board = make();
    await board.advance('k', 3);
    expect(await board.current('k')).toBe(3);
    await board.advance('k', 2);
    await board.advance('k', 3);
    expect(await board.current('k')).toBe(3);
    await board.advance('k', 10);
    await board.advance('k', 9);
    await board.advance('k', 0);
    await board.advance('k', 10);
    expect(await board.current('k')).toBe(10);
    await board.advance('k', 11);
    expect(await board.current('k')).toBe(11);
  });

  it('keeps keys apart', async () => {
    const board = make();
    await board.advance(intentionsKey('org_a'), 5);
    await board.advance(cardsKey('org_a'), 2);
    expect(await board.current(intentionsKey('org_a'))).toBe(5);
    expect(await board.current(cardsKey('org_a'))).toBe(2);
    expect(await board.current(intentionsKey('org_b'))).toBe(0);
  });

  it('refuses versions that are not non-negative integers', async () => {
    const board = make();
    for (const bad of [-1, 1.5, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) await expect(board.advance('k', bad)).rejects.toThrow(RangeError);
    expect(await board.current('k')).toBe(0);
  });
}
