import type { InstallIntentCardDto, IntentCardDto, IntentCardsSnapshotDto, ReplayRequestDto } from '@igw/contracts';
import { AppError, type PageKey } from '@igw/kernel';
import type { KeptDecision } from '../../domain';
import type { DecisionCalls } from '../ports/decision-calls.port';
import { ReplayCardDraftUseCase } from './replay-card-draft.use-case';

const NOW = new Date('2026-11-27T12:00:00Z');
const clock = { now: () => NOW };
const SCOPE = { operations: ['crm.contacts.*'], resources: ['crm://**'], forbidden_operations: [] as string[] };
const installed = (over: Partial<IntentCardDto> = {}) =>
  ({
    id: 'crm',
    name: 'CRM',
    description: '',
    allowed_scope: SCOPE,
    audiences: ['crm-api'],
    max_ttl_seconds: 900,
    shadow: false,
    rules: [],
    ...over,
  }) as IntentCardDto;

/** The registry's preview, as the real one: the draft first, replacing the installed card with its id. */
class FakeRegistry {
  previewed: InstallIntentCardDto[] = [];
  constructor(private readonly cards: IntentCardDto[]) {}
  async previewIntentCard(_org: string, draft: InstallIntentCardDto): Promise<IntentCardsSnapshotDto> {
    this.previewed.push(draft);
    const id = draft.id ?? 'card_draft';
    const drafted = { ...installed(), ...draft, id, allowed_scope: { forbidden_operations: [], ...draft.allowed_scope }, rules: draft.rules ?? [] };
    const all = [drafted, ...this.cards.filter((c) => c.id !== id)];
    return { version: 3, cards: all.map((c) => ({ ...c, org_id: 'org_1', version: 1, org_version: 3 })) as never };
  }
  async intentCard(_org: string, id: string): Promise<IntentCardDto | null> {
    return this.cards.find((c) => c.id === id) ?? null;
  }
}

class FakeCalls implements DecisionCalls {
  asked: string[] = [];
  constructor(private readonly kept: KeptDecision[]) {}
  async page(orgId: string, q: { since: Date; until: Date; after: PageKey | null; limit: number }): Promise<KeptDecision[]> {
    this.asked.push(orgId);
    const key = (k: PageKey) => `${k.createdAt.toISOString()}|${k.id}`;
    return this.kept
      .filter((k) => k.createdAt >= q.since && k.createdAt < q.until && (q.after === null || key(k) > key(q.after)))
      .sort((a, b) => key(a).localeCompare(key(b)))
      .slice(0, q.limit);
  }
  callsOf = async () => new Map();
  purgeBefore = async () => 0;
}

let seq = 0;
const kept = (operation: string, kind: KeptDecision['kind'] = 'allow', over: Partial<KeptDecision> = {}): KeptDecision => ({
  id: `dec_${String(++seq).padStart(4, '0')}`,
  createdAt: new Date(NOW.getTime() - 3_600_000 + seq),
  kind,
  intentId: 'crm',
  promptId: null,
  actor: 'agent:crm-bot',
  audience: 'crm-api',
  credId: 'mnd_1',
  approvalRequestId: null,
  call: { action: { surface: 'sdk', operation, target_resource: 'crm://contacts/42' }, context: { actor: 'agent:crm-bot' } },
  ...over,
});

function replayer(cards: IntentCardDto[], calls: KeptDecision[], deadlineMs = 10_000, now: () => Date = clock.now) {
  const registry = new FakeRegistry(cards);
  const store = new FakeCalls(calls);
  const useCase = new ReplayCardDraftUseCase(registry, store, { acrLevels: ['aal1', 'aal2'] }, { now }, { days: 7, maxBytes: 65536 }, deadlineMs);
  return { useCase, registry, store };
}

const draft = (over: Partial<InstallIntentCardDto> = {}): InstallIntentCardDto =>
  ({
    id: 'crm',
    name: 'CRM',
    allowed_scope: { operations: ['crm.contacts.read'], resources: ['crm://**'] },
    audiences: ['crm-api'],
    ...over,
  }) as InstallIntentCardDto;
const request = (card: InstallIntentCardDto, over: Partial<ReplayRequestDto> = {}): ReplayRequestDto => ({ kind: 'card', card, ...over });

describe('ReplayCardDraftUseCase', () => {
  it('re-decides kept calls with the engine: a draft without the scope flips allow to deny, changed pairs only', async () => {
    const calls = [kept('crm.contacts.read'), kept('crm.contacts.update'), kept('crm.contacts.update')];
    const { useCase, store } = replayer([installed()], calls);
    const result = await useCase.replayCard({ orgId: 'org_1' }, request(draft()));
    expect(result.replayed).toBe(3);
    expect(result.transitions).toEqual([{ from: 'allow', to: 'deny', count: 2 }]);
    expect(result.calls.map((c) => [c.tool_name, c.before, c.after])).toEqual([
      ['crm.contacts.update', { kind: 'allow' }, { kind: 'deny' }],
      ['crm.contacts.update', { kind: 'allow' }, { kind: 'deny' }],
    ]);
    expect(result.next_cursor).toBeNull();
    expect(store.asked.every((o) => o === 'org_1')).toBe(true);
  });

  it('runs the draft rules (CEL) and never widens past the installed scope', async () => {
    const rules = [{ id: 'ask', when: 'action.operation == "crm.contacts.read"', decision: { kind: 'approval' } }];
    const wide = draft({ allowed_scope: { operations: ['crm.**'], resources: ['crm://**'] }, rules } as never);
    const calls = [kept('crm.contacts.read'), kept('crm.accounts.read', 'deny')];
    const { useCase } = replayer([installed()], calls);
    const result = await useCase.replayCard({ orgId: 'org_1' }, request(wide));
    expect(result.transitions).toEqual([{ from: 'allow', to: 'approval', count: 1 }]);
  });

  it('keeps a spent approval spent, and a call on another card is decided by that card', async () => {
    const rules = [{ id: 'ask', when: 'true', decision: { kind: 'approval' } }];
    const calls = [kept('crm.contacts.read', 'allow', { approvalRequestId: 'apr_1' }), kept('hr.read', 'allow', { intentId: 'hr' })];
    const hr = installed({ id: 'hr', allowed_scope: { operations: ['hr.*'], resources: ['crm://**'], forbidden_operations: [] } });
    const { useCase } = replayer([installed(), hr], calls);
    const result = await useCase.replayCard({ orgId: 'org_1' }, request(draft({ rules } as never)));
    expect(result).toMatchObject({ replayed: 2, transitions: [], calls: [] });
  });

  it('pages changed calls with a cursor that fixes the window and refuses another draft', async () => {
    const calls = Array.from({ length: 250 }, () => kept('crm.contacts.update'));
    const { useCase } = replayer([installed()], calls);
    const first = await useCase.replayCard({ orgId: 'org_1' }, request(draft()));
    expect(first.calls).toHaveLength(200);
    expect(first.next_cursor).not.toBeNull();
    const second = await useCase.replayCard({ orgId: 'org_1' }, request(draft(), { cursor: first.next_cursor as string }));
    expect(second).toMatchObject({ replayed: 250, transitions: [{ from: 'allow', to: 'deny', count: 250 }], next_cursor: null });
    expect(second.calls).toHaveLength(50);
    await expect(useCase.replayCard({ orgId: 'org_1' }, request(draft({ name: 'other' }), { cursor: first.next_cursor as string }))).rejects.toMatchObject({
      code: 'cursor_stale',
    });
  });

  it('lists only what the draft changes: a mandate narrowed at dispense is no change under an unchanged card', async () => {
    // Recorded `negotiate`: the mandate's own scope (not kept) was narrower than the card's.
    const calls = [kept('crm.contacts.update', 'negotiate'), kept('crm.contacts.read')];
    const { useCase } = replayer([installed()], calls);
    const same = await useCase.replayCard({ orgId: 'org_1' }, request(draft({ allowed_scope: SCOPE } as never)));
    expect(same).toMatchObject({ replayed: 2, transitions: [], calls: [] });
    // A draft that does change it is listed from what was recorded.
    const narrower = await useCase.replayCard({ orgId: 'org_1' }, request(draft()));
    expect(narrower.transitions).toEqual([{ from: 'negotiate', to: 'deny', count: 1 }]);
  });

  it('answers 503 replay_deadline with its progress past the deadline', async () => {
    let t = NOW.getTime();
    const calls = Array.from({ length: 5 }, () => kept('crm.contacts.read'));
    const { useCase } = replayer([installed()], calls, 100, () => new Date((t += 40)));
    const failure = await useCase.replayCard({ orgId: 'org_1' }, request(draft())).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ kind: 'unavailable', code: 'replay_deadline', extra: { replayed: 2 } });
  });

  it('refuses a body without a card', async () => {
    const { useCase, registry } = replayer([installed()], []);
    await expect(useCase.replayCard({ orgId: 'org_1' }, { kind: 'card' })).rejects.toMatchObject({ kind: 'invalid' });
    expect(registry.previewed).toEqual([]);
  });
});
