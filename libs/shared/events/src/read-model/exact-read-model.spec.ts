import { DependencyUnavailableError, FixedClock } from '@igw/kernel';
import { MemoryVersionBoard } from '../version-board/memory-version-board';
import { ExactReadModel, ReadModelTracker, type OrgState } from './exact-read-model';

interface Items extends OrgState {
  items: string[];
}

/** An owner: per org a counter and a list; can fail, lag or hold its answers. */
class FakeOwner {
  readonly orgs = new Map<string, { version: number; items: string[] }>();
  loads: string[] = [];
  failing = false;
  lag = false;
  hold: Promise<void> | null = null;

  async change(board: MemoryVersionBoard, orgId: string, items: string[]): Promise<number> {
    const version = (this.orgs.get(orgId)?.version ?? 0) + 1;
    this.orgs.set(orgId, { version, items });
    await board.advance(`items:${orgId}`, version);
    return version;
  }

  async load(orgId: string): Promise<Items> {
    this.loads.push(orgId);
    if (this.failing) throw new Error('owner down');
    const org = this.orgs.get(orgId) ?? { version: 0, items: [] };
    const answer = { version: this.lag ? Math.max(0, org.version - 1) : org.version, items: [...org.items] };
    if (this.hold) await this.hold;
    return answer;
  }

  async orgIds(): Promise<string[]> {
    if (this.failing) throw new Error('owner down');
    return [...this.orgs.keys()];
  }
}

function setup(maxAgeMs?: number) {
  const board = new MemoryVersionBoard();
  const owner = new FakeOwner();
  const clock = new FixedClock(new Date('2026-11-25T10:00:00Z'));
  const model = new ExactReadModel<Items>({
    name: 'items',
    owner: 'item-owner',
    board,
    key: (org) => `items:${org}`,
    source: { load: (org) => owner.load(org), orgs: () => owner.orgIds() },
    clock,
    ...(maxAgeMs !== undefined ? { maxAgeMs } : {}),
  });
  return { board, owner, clock, model };
}

describe('ExactReadModel', () => {
  it('loads an org it does not hold even when the board reads 0, then answers synchronously', async () => {
    const { owner, model } = setup();
    owner.orgs.set('org_a', { version: 3, items: ['x'] });
    const first = model.at('org_a', 0);
    expect(first).toBeInstanceOf(Promise);
    expect((await first).items).toEqual(['x']);
    const again = model.at('org_a', 3);
    expect(again).not.toBeInstanceOf(Promise);
    expect((again as Items).items).toEqual(['x']);
    expect(owner.loads).toEqual(['org_a']);
  });

  it('a change advanced on the board is seen by the very next call', async () => {
    const { board, owner, model } = setup();
    await owner.change(board, 'org_a', ['x']);
    expect((await model.current('org_a')).items).toEqual(['x']);
    await owner.change(board, 'org_a', ['x', 'y']);
    expect((await model.current('org_a')).items).toEqual(['x', 'y']);
    expect(owner.loads).toEqual(['org_a', 'org_a']);
  });

  it('applies only the next version of an org it holds; repeats, gaps and unknown orgs wait for a load', async () => {
    const { board, owner, model } = setup();
    await owner.change(board, 'org_a', ['x']);
    await model.current('org_a');
    expect(model.applyNext('org_a', 2, (s) => s.items.push('y'))).toBe(true);
    expect(model.applyNext('org_a', 2, (s) => s.items.push('again'))).toBe(false);
    expect(model.applyNext('org_a', 4, (s) => s.items.push('gap'))).toBe(false);
    expect(model.applyNext('org_b', 1, (s) => s.items.push('unknown'))).toBe(false);
    expect(model.peek('org_a')).toEqual({ version: 2, items: ['x', 'y'] });
    expect(model.peek('org_b')).toBeUndefined();
    await board.advance('items:org_a', 2);
    expect(model.at('org_a', 2)).toEqual({ version: 2, items: ['x', 'y'] });
  });

  it('fails closed when the board cannot be read, the owner is down, or the owner stays older than the board', async () => {
    const { board, owner, model } = setup();
    jest.spyOn(board, 'current').mockRejectedValueOnce(new Error('redis down'));
    await expect(model.current('org_a')).rejects.toBeInstanceOf(DependencyUnavailableError);

    owner.failing = true;
    const down = await (model.at('org_a', 0) as Promise<Items>).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(DependencyUnavailableError);
    expect((down as DependencyUnavailableError).dependency).toBe('item-owner');

    owner.failing = false;
    await owner.change(board, 'org_a', ['x']);
    owner.lag = true;
    await expect(model.current('org_a')).rejects.toBeInstanceOf(DependencyUnavailableError);
    // It tried twice (a load in flight may have started before the change), then gave up.
    expect(owner.loads.slice(-2)).toEqual(['org_a', 'org_a']);
  });

  it('concurrent calls share one load', async () => {
    const { owner, model } = setup();
    owner.orgs.set('org_a', { version: 1, items: ['x'] });
    let release!: () => void;
    owner.hold = new Promise((r) => (release = r));
    const calls = [model.at('org_a', 1), model.at('org_a', 1), model.at('org_a', 0)];
    release();
    await Promise.all(calls);
    expect(owner.loads).toEqual(['org_a']);
  });

  it('an event applied while a load was in flight is not overwritten by the older load', async () => {
    const { owner, model } = setup();
    owner.orgs.set('org_a', { version: 1, items: ['x'] });
    await model.at('org_a', 1);
    owner.orgs.set('org_a', { version: 1, items: ['x'] });
    let release!: () => void;
    owner.hold = new Promise((r) => (release = r));
    const loading = model.at('org_a', 2); // behind: loads (the owner still answers version 1)
    model.applyNext('org_a', 2, (s) => s.items.push('y'));
    release();
    await expect(loading).resolves.toEqual({ version: 2, items: ['x', 'y'] });
  });

  it('reloads a copy older than maxAgeMs even when the board says it is current', async () => {
    const { owner, clock, model } = setup(10_000);
    owner.orgs.set('org_a', { version: 1, items: ['x'] });
    await model.at('org_a', 1);
    expect(model.at('org_a', 1)).not.toBeInstanceOf(Promise);
    clock.advance(10_000);
    expect(model.at('org_a', 1)).toBeInstanceOf(Promise);
  });

  it('warm() loads every org the owner lists and makes the model ready; warmUntilReady retries while the owner is down', async () => {
    const { board, owner, model } = setup();
    await owner.change(board, 'org_a', ['a']);
    await owner.change(board, 'org_b', ['b']);
    const tracker = new ReadModelTracker();
    tracker.track(model);
    expect(tracker.ready).toBe(false);
    expect(tracker.pending()).toEqual(['items']);
    expect(await tracker.check().check()).toBe(false);

    owner.failing = true;
    const warn = jest.fn();
    const warming = model.warmUntilReady({ warn, log: jest.fn() }, 5);
    await new Promise((r) => setTimeout(r, 20));
    expect(model.ready).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    owner.failing = false;
    await warming;
    await tracker.whenReady(1);
    expect(tracker.ready).toBe(true);
    expect(await tracker.check().check()).toBe(true);
    owner.loads = [];
    expect(model.at('org_a', 1)).toEqual({ version: 1, items: ['a'] });
    expect(model.at('org_b', 1)).toEqual({ version: 1, items: ['b'] });
    expect(owner.loads).toEqual([]);
  });
});
