import { Logger } from '@nestjs/common';
import { DependencyUnavailableError } from '@igw/kernel';
import { announceVersion } from './announce-version';
import { MemoryVersionBoard } from './memory-version-board';

describe('announceVersion', () => {
  afterEach(() => jest.restoreAllMocks());

  it('advances the board', async () => {
    const board = new MemoryVersionBoard();
    await announceVersion(board, 'cards:org_1', 4);
    expect(await board.current('cards:org_1')).toBe(4);
  });

  it('does nothing without a board (a service run without readers)', async () => {
    await expect(announceVersion(undefined, 'cards:org_1', 4)).resolves.toBeUndefined();
    await expect(announceVersion(null, 'cards:org_1', 4)).resolves.toBeUndefined();
  });

  it('fails closed: a board that cannot be written is a 503 for the caller, with a warning naming key and version', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const board = new MemoryVersionBoard();
    jest.spyOn(board, 'advance').mockRejectedValue(new Error('redis down'));
    const failure = announceVersion(board, 'revocations:org_1', 7);
    await expect(failure).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(String(warn.mock.calls[0]![0])).toMatch(/version board not advanced \(revocations:org_1 → 7\).*redis down/);
  });
});
