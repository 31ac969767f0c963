import { MemoryVersionBoard } from './memory-version-board';
import { itBehavesAsAVersionBoard } from './version-board.contract';
import { cardsKey, intentionsKey } from './version-board.port';

describe('MemoryVersionBoard', () => {
  itBehavesAsAVersionBoard(() => new MemoryVersionBoard());

  it('ends at the highest of concurrent advances, whatever their order', async () => {
    const board = new MemoryVersionBoard();
    const versions = Array.from({ length: 50 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
    await Promise.all(versions.map((v) => board.advance('k', v)));
    expect(await board.current('k')).toBe(50);
  });

  it('names the registry counters per org', () => {
    expect(intentionsKey('org_1')).toBe('intentions:org_1');
    expect(cardsKey('org_1')).toBe('cards:org_1');
  });
});
