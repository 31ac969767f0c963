import { statCountsUpkeepTask, type StatCountsTable } from './stat-counts';

describe('statCountsUpkeepTask', () => {
  const clock = { now: () => new Date('2026-03-08T10:00:00Z') };

  it('prunes even when the roll-up fails, and reports the failure', async () => {
    const table = { rollUpHours: jest.fn().mockRejectedValue(new Error('lock timeout')), prune: jest.fn().mockResolvedValue(3) };
    const log = { log: jest.fn(), warn: jest.fn() };
    await statCountsUpkeepTask(table as unknown as StatCountsTable, clock, log).runOnce();
    expect(table.prune).toHaveBeenCalledWith(clock.now());
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('lock timeout'));
  });

  it('rolls up before it prunes, at the same clock reading', async () => {
    const calls: string[] = [];
    const table = {
      rollUpHours: jest.fn(async () => (calls.push('roll-up'), 2)),
      prune: jest.fn(async () => (calls.push('prune'), 1)),
    };
    await statCountsUpkeepTask(table as unknown as StatCountsTable, clock, { log: jest.fn(), warn: jest.fn() }).runOnce();
    expect(calls).toEqual(['roll-up', 'prune']);
    expect(table.rollUpHours).toHaveBeenCalledWith(clock.now());
  });
});
