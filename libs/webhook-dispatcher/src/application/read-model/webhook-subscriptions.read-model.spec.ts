import { MemoryVersionBoard, webhooksKey } from '@igw/events';
import { DependencyUnavailableError, FixedClock } from '@igw/kernel';
import { SUBSCRIPTIONS_MAX_AGE_MS, WebhookSubscriptions } from './webhook-subscriptions.read-model';

function setup() {
  const board = new MemoryVersionBoard();
  const clock = new FixedClock(new Date('2026-03-01T10:00:00Z'));
  const state = { version: 0, types: [] as string[], reads: 0 };
  const repo = {
    subscriptions: async () => {
      state.reads++;
      return { version: state.version, types: [...state.types] };
    },
    subscribedOrgIds: async () => ['org_a'],
  };
  const change = async (types: string[]) => {
    state.version++;
    state.types = types;
    await board.advance(webhooksKey('org_a'), state.version);
  };
  return { board, clock, state, change, model: new WebhookSubscriptions(board, repo, clock) };
}

describe('WebhookSubscriptions', () => {
  it('answers from memory while the board says the copy is current', async () => {
    const t = setup();
    expect(await t.model.wants('org_a', 'decision.made')).toBe(false);
    expect(await t.model.wants('org_a', 'decision.made')).toBe(false);
    expect(await t.model.wants('org_a', 'intent.evaluated')).toBe(false);
    expect(t.state.reads).toBe(1);
  });

  it('a change advanced on the board decides the very next event', async () => {
    const t = setup();
    expect(await t.model.wants('org_a', 'decision.made')).toBe(false);
    await t.change(['decision.made']);
    expect(await t.model.wants('org_a', 'decision.made')).toBe(true);
    await t.change([]);
    expect(await t.model.wants('org_a', 'decision.made')).toBe(false);
    expect(t.state.reads).toBe(3);
  });

  it('reloads a copy older than the maximum age even when the board was never advanced', async () => {
    const t = setup();
    expect(await t.model.wants('org_a', 'decision.made')).toBe(false);
    t.state.version++;
    t.state.types = ['decision.made'];
    expect(await t.model.wants('org_a', 'decision.made')).toBe(false);
    t.clock.advance(SUBSCRIPTIONS_MAX_AGE_MS);
    expect(await t.model.wants('org_a', 'decision.made')).toBe(true);
  });

  it('fails (so the event is delivered again) when the board cannot be read or the store is behind it', async () => {
    const t = setup();
    jest.spyOn(t.board, 'current').mockRejectedValueOnce(new Error('redis down'));
    await expect(t.model.wants('org_a', 'decision.made')).rejects.toBeInstanceOf(DependencyUnavailableError);
    await t.board.advance(webhooksKey('org_a'), 5);
    await expect(t.model.wants('org_a', 'decision.made')).rejects.toBeInstanceOf(DependencyUnavailableError);
  });
});
