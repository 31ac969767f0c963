import type { ActiveIntentionsDto, IntentionChangeDto, IntentionEventV1, ReplayRequestDto } from '@igw/contracts';
import { intentionEvent } from '@igw/contracts/testing';
import { AppError, FixedClock, type Caller } from '@igw/kernel';
import { ClassificationCascade } from '../classification/classification-cascade';
import type { RecordedCall, RecordedCalls, RecordedCallsQuery } from '../ports/intent-event.repository.port';
import { ReplayIntentionChangesUseCase } from './replay-intention-changes.use-case';

const ORG = 'org_a';
const caller: Caller = { orgId: ORG, keyId: 'key_1', scope: 'policy_write' };
const NOW = new Date('2026-11-27T12:00:00.000Z');

const contacts = intentionEvent({
  id: 'int_contacts',
  label: 'crm.read_contacts',
  description: 'Read CRM contacts',
  tools: ['crm.get_contact'],
  data_elements: [],
});
const refunds = intentionEvent({
  id: 'int_refunds',
  label: 'billing.refund',
  description: 'Refund an invoice',
  tools: [],
  data_elements: [],
  approval_required: true,
});

/** The registry's preview, reduced to what these specs need (its rules have their own spec). */
class FakeRegistry {
  readonly asked: IntentionChangeDto[][] = [];
  version = 4;
  constructor(private readonly active: IntentionEventV1[]) {}
  async previewIntentionChanges(_org: string, changes: IntentionChangeDto[]): Promise<ActiveIntentionsDto> {
    this.asked.push(changes);
    const state = new Map(this.active.map((i) => [i.id, i]));
    for (const c of changes) {
      if (c.action === 'archive') state.delete(c.id ?? '');
      if (c.action === 'update') state.set(c.id ?? '', { ...state.get(c.id ?? '')!, ...(c.intention as Partial<IntentionEventV1>) });
    }
    return { version: this.version, intentions: [...state.values()], examples: [] };
  }
}

/** Kept calls of several orgs; pages as the SQL adapter does (oldest first, keyset). */
class FakeCalls implements RecordedCalls {
  readonly pages: RecordedCallsQuery[] = [];
  onPage: () => void = () => undefined;
  constructor(private readonly rows: (RecordedCall & { orgId: string })[]) {}
  async page(orgId: string, q: RecordedCallsQuery): Promise<RecordedCall[]> {
    this.pages.push(q);
    this.onPage();
    const key = (r: RecordedCall) => `${r.createdAt.toISOString()}|${r.id}`;
    const after = q.after ? `${q.after.createdAt.toISOString()}|${q.after.id}` : '';
    return this.rows
      .filter((r) => r.orgId === orgId && r.createdAt >= q.since && r.createdAt < q.until && key(r) > after)
      .sort((a, b) => key(a).localeCompare(key(b)))
      .slice(0, q.limit);
  }
}

let seq = 0;
const kept = (toolName: string, outcome: RecordedCall['outcome'], intentLabel: string, orgId = ORG): RecordedCall & { orgId: string } => {
  seq += 1;
  return {
    orgId,
    id: `iev_${String(seq).padStart(5, '0')}`,
    createdAt: new Date(NOW.getTime() - 3_600_000 + seq),
    outcome,
    intentLabel,
    shadowMode: false,
    call: { toolName, arguments: { id: seq } },
  };
};

function replayer(rows: (RecordedCall & { orgId: string })[], deadlineMs = 10_000) {
  const registry = new FakeRegistry([contacts, refunds]);
  const calls = new FakeCalls(rows);
  const clock = new FixedClock(NOW);
  const useCase = new ReplayIntentionChangesUseCase(new ClassificationCascade(), registry, calls, clock, { days: 7, maxBytes: 65536 }, deadlineMs);
  return { useCase, registry, calls, clock };
}

const request = (changes: IntentionChangeDto[], over: Partial<ReplayRequestDto> = {}): ReplayRequestDto => ({ kind: 'intentions', changes, ...over });

describe('ReplayIntentionChangesUseCase', () => {
  it('lists only the calls a draft changes, with their transitions; unchanged calls are counted, not listed', async () => {
    const rows = [kept('crm.get_contact', 'allowed', 'crm.read_contacts'), kept('crm.get_contact', 'allowed', 'crm.read_contacts')];
    const { useCase } = replayer(rows);

    expect(await useCase.execute(caller, request([]))).toEqual({ replayed: 2, transitions: [], calls: [], next_cursor: null });

    const archived = await useCase.execute(caller, request([{ action: 'archive', id: 'int_contacts' }]));
    expect(archived.replayed).toBe(2);
    expect(archived.transitions).toEqual([{ from: 'allowed', to: 'denied', count: 2 }]);
    expect(archived.calls).toEqual(
      rows.map((r) => ({
        id: r.id,
        tool_name: 'crm.get_contact',
        before: { outcome: 'allowed', intent_label: 'crm.read_contacts' },
        after: { outcome: 'denied', intent_label: 'ambient' },
      })),
    );
  });

  it('a binding makes a held call certain: pending_approval -> allowed', async () => {
    const rows = [kept('billing.issue_refund', 'pending_approval', 'billing.refund')];
    const { useCase } = replayer(rows);
    const bound = await useCase.execute(
      caller,
      request([{ action: 'update', id: 'int_refunds', intention: { tools: ['billing.issue_refund'], approval_required: false } as never }]),
    );
    expect(bound.transitions).toEqual([{ from: 'pending_approval', to: 'allowed', count: 1 }]);
    expect(bound.calls[0]?.after).toEqual({ outcome: 'allowed', intent_label: 'billing.refund' });
  });

  it("replays only the caller's org, in the window, at most limit calls, reading in bounded pages", async () => {
    const mine = Array.from({ length: 1200 }, () => kept('crm.get_contact', 'allowed', 'crm.read_contacts'));
    const theirs = [kept('crm.get_contact', 'allowed', 'crm.read_contacts', 'org_b')];
    const { useCase, calls } = replayer([...mine, ...theirs]);
    const result = await useCase.execute(caller, request([{ action: 'archive', id: 'int_contacts' }], { limit: 1100 }));
    expect(result.replayed).toBe(1100);
    expect(result.transitions).toEqual([{ from: 'allowed', to: 'denied', count: 1100 }]);
    expect(result.calls.every((c) => c.id !== theirs[0]!.id)).toBe(true);
    expect(calls.pages.map((p) => p.limit)).toEqual([500, 500, 100]);
  });

  it('pages the changed calls with a cursor that re-runs the same window; the counts are the same on every page', async () => {
    const rows = Array.from({ length: 250 }, () => kept('crm.get_contact', 'allowed', 'crm.read_contacts'));
    const { useCase } = replayer(rows);
    const changes: IntentionChangeDto[] = [{ action: 'archive', id: 'int_contacts' }];
    const first = await useCase.execute(caller, request(changes));
    expect(first.calls).toHaveLength(200);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await useCase.execute(caller, request(changes, { cursor: first.next_cursor! }));
    expect(second.calls.map((c) => c.id)).toEqual(rows.slice(200).map((r) => r.id));
    expect(second).toMatchObject({ replayed: 250, transitions: first.transitions, next_cursor: null });
  });

  it('refuses a cursor sent with another draft, or after the intentions changed (409 cursor_stale)', async () => {
    const rows = Array.from({ length: 201 }, () => kept('crm.get_contact', 'allowed', 'crm.read_contacts'));
    const { useCase, registry } = replayer(rows);
    const first = await useCase.execute(caller, request([{ action: 'archive', id: 'int_contacts' }]));
    const cursor = first.next_cursor!;
    await expect(useCase.execute(caller, request([{ action: 'archive', id: 'int_refunds' }], { cursor }))).rejects.toMatchObject({ code: 'cursor_stale' });
    registry.version += 1;
    await expect(useCase.execute(caller, request([{ action: 'archive', id: 'int_contacts' }], { cursor }))).rejects.toMatchObject({ code: 'cursor_stale' });
    await expect(useCase.execute(caller, request([], { cursor: 'not a cursor' }))).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('past its deadline answers 503 replay_deadline with how far it got, never a partial result', async () => {
    const rows = Array.from({ length: 700 }, () => kept('crm.get_contact', 'allowed', 'crm.read_contacts'));
    const { useCase, calls, clock } = replayer(rows, 1000);
    // Time passes only between pages: the first page (500 calls) fits, the second does not.
    let pages = 0;
    calls.onPage = () => (pages++ > 0 ? clock.advance(1001) : undefined);
    const failure = await useCase.execute(caller, request([])).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ kind: 'unavailable', code: 'replay_deadline', extra: { replayed: 500 } });
  });

  it('answers 400 unsupported_kind for a card draft when no card replay is wired, before any work', async () => {
    const { useCase, registry, calls } = replayer([]);
    await expect(useCase.execute(caller, { kind: 'card', card: {} as never })).rejects.toMatchObject({ kind: 'invalid', code: 'unsupported_kind' });
    expect(registry.asked).toEqual([]);
    expect(calls.pages).toEqual([]);
  });

  it('never reads before the retention window, and refuses a window that ends before it starts', async () => {
    const { useCase, calls } = replayer([]);
    await useCase.execute(caller, request([], { since: '2020-01-01T00:00:00Z' }));
    expect(calls.pages[0]?.since).toEqual(new Date(NOW.getTime() - 7 * 86_400_000));
    await expect(useCase.execute(caller, request([], { since: '2026-11-27T10:00:00Z', until: '2026-11-27T09:00:00Z' }))).rejects.toMatchObject({
      code: 'invalid_request',
      extra: { details: [{ path: 'until', message: 'until must be after since' }] },
    });
    await expect(useCase.execute(caller, request([], { since: 'yesterday' }))).rejects.toMatchObject({ extra: { details: [{ path: 'since' }] } });
  });
});
