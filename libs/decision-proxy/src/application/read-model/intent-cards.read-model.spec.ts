import type { IntentCardEventV1, IntentCardsSnapshotDto, PolicyRegistryApi } from '@igw/contracts';
import { MemoryVersionBoard } from '@igw/events';
import { DependencyUnavailableError } from '@igw/kernel';
import { intentCardEventFixture } from '@igw/testing/unit';
import type { CompiledCard } from '../../domain';
import { IntentCardsReadModel } from './intent-cards.read-model';

const SCOPE = { operations: ['crm.contacts.read'], resources: ['crm://contacts/*'], forbidden_operations: ['crm.*.delete'] };

const cardEvent = (id: string, orgVersion: number, over: Partial<IntentCardEventV1> = {}): IntentCardEventV1 =>
  intentCardEventFixture(id, { allowed_scope: structuredClone(SCOPE), org_version: orgVersion, ...over });

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The registry's snapshot of each org, read at call time; can fail or be held. */
class FakeRegistry implements Pick<PolicyRegistryApi, 'intentCards' | 'orgsWith'> {
  readonly orgs = new Map<string, { version: number; cards: IntentCardEventV1[] }>();
  calls: string[] = [];
  failing = false;
  /** When set, the next call waits for it (the snapshot is still read at call time). */
  hold: Deferred<void> | null = null;

  set(orgId: string, version: number, cards: IntentCardEventV1[]): void {
    this.orgs.set(orgId, { version, cards: structuredClone(cards) });
  }

  async intentCards(orgId: string): Promise<IntentCardsSnapshotDto> {
    this.calls.push(orgId);
    if (this.failing) throw new Error('registry down');
    const org = this.orgs.get(orgId) ?? { version: 0, cards: [] };
    const snapshot = { version: org.version, cards: structuredClone(org.cards) };
    const hold = this.hold;
    this.hold = null;
    if (hold) await hold.promise;
    return snapshot;
  }

  async orgsWith() {
    if (this.failing) throw new Error('registry down');
    return { org_ids: [...this.orgs.keys()] };
  }
}

const isPromise = (v: unknown): v is Promise<unknown> => v instanceof Promise;

describe('IntentCardsReadModel', () => {
  let registry: FakeRegistry;
  let model: IntentCardsReadModel;

  beforeEach(() => {
    registry = new FakeRegistry();
    registry.set('org_1', 2, [cardEvent('crm', 2), cardEvent('billing', 1)]);
    model = new IntentCardsReadModel(registry, new MemoryVersionBoard());
  });

  /** Warms org_1 at the registry's version. */
  const warm = async (orgId = 'org_1', version = registry.orgs.get(orgId)?.version ?? 0) => {
    await model.card(orgId, 'crm', version);
  };

  it('loads a snapshot on cold start and answers with the compiled card', async () => {
    const found = model.card('org_1', 'crm', 2);
    expect(isPromise(found)).toBe(true);
    const card = (await found) as CompiledCard;
    expect(card).toMatchObject({ id: 'crm', version: 1, shadow: false, scopeProblem: null });
    expect(card.scope?.operations.map((g) => g.pattern)).toEqual(['crm.contacts.read']);
    expect(registry.calls).toEqual(['org_1']);
  });

  it('answers synchronously (no promise) once current, without asking the registry again', async () => {
    await warm();
    const card = model.card('org_1', 'billing', 2);
    expect(isPromise(card)).toBe(false);
    expect((card as CompiledCard).id).toBe('billing');
    // A board behind the model is current too.
    expect(isPromise(model.card('org_1', 'crm', 1))).toBe(false);
    expect(model.card('org_1', 'nope', 2)).toBeNull();
    expect(registry.calls).toHaveLength(1);
  });

  it('answers null for a card the org does not have (cold start too)', async () => {
    await expect(model.card('org_1', 'nope', 2)).resolves.toBeNull();
    await expect(model.card('org_empty', 'crm', 0)).resolves.toBeNull();
  });

  it('applies an event that is the next version: installed and deleted cards', async () => {
    await warm();
    model.apply('org_1', cardEvent('hr', 3));
    const hr = model.card('org_1', 'hr', 3);
    expect(isPromise(hr)).toBe(false);
    expect((hr as CompiledCard).id).toBe('hr');

    model.apply('org_1', cardEvent('crm', 4, { version: 2, shadow: true }));
    expect(model.card('org_1', 'crm', 4)).toMatchObject({ id: 'crm', version: 2, shadow: true });

    model.apply('org_1', cardEvent('billing', 5, { deleted: true }));
    expect(model.card('org_1', 'billing', 5)).toBeNull();
    expect(registry.calls).toHaveLength(1);
  });

  it('ignores an event that is not the next version (old, repeated or ahead)', async () => {
    await warm();
    model.apply('org_1', cardEvent('crm', 2, { version: 9 }));
    model.apply('org_1', cardEvent('crm', 1, { version: 9 }));
    model.apply('org_1', cardEvent('hr', 4));
    expect(model.card('org_1', 'crm', 2)).toMatchObject({ version: 1 });
    expect(model.card('org_1', 'hr', 2)).toBeNull();
  });

  it('ignores events for an org it has not loaded (the first call loads a snapshot)', async () => {
    model.apply('org_1', cardEvent('hr', 1));
    expect(isPromise(model.card('org_1', 'hr', 0))).toBe(true);
  });

  it('loads a snapshot when the board is past a gap in the events', async () => {
    await warm();
    // Events 3 and 4 are lost; the registry is at 4.
    registry.set('org_1', 4, [cardEvent('crm', 4, { version: 3 }), cardEvent('hr', 3)]);
    model.apply('org_1', cardEvent('crm', 4, { version: 3 }));
    const found = model.card('org_1', 'hr', 4);
    expect(isPromise(found)).toBe(true);
    expect(await found).toMatchObject({ id: 'hr' });
    expect(model.card('org_1', 'crm', 4)).toMatchObject({ version: 3 });
    // The snapshot replaced the model: billing was deleted meanwhile.
    expect(model.card('org_1', 'billing', 4)).toBeNull();
    expect(registry.calls).toHaveLength(2);
  });

  it('fails closed with DependencyUnavailableError when the snapshot is older than the board', async () => {
    await expect(model.card('org_1', 'crm', 3)).rejects.toBeInstanceOf(DependencyUnavailableError);
    // Nothing half-applied: a later call at a version the registry has works.
    expect(await model.card('org_1', 'crm', 2)).toMatchObject({ id: 'crm' });
  });

  it('fails closed with DependencyUnavailableError when the registry throws, and recovers', async () => {
    registry.failing = true;
    const err = await (model.card('org_1', 'crm', 2) as Promise<unknown>).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DependencyUnavailableError);
    expect((err as DependencyUnavailableError).dependency).toBe('policy-registry');
    registry.failing = false;
    expect(await model.card('org_1', 'crm', 2)).toMatchObject({ id: 'crm' });
  });

  it('keeps answering from a current model while the registry is down', async () => {
    await warm();
    registry.failing = true;
    expect(model.card('org_1', 'crm', 2)).toMatchObject({ id: 'crm' });
    await expect(model.card('org_1', 'crm', 3)).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('shares one registry fetch between concurrent calls', async () => {
    const gate = deferred<void>();
    registry.hold = gate;
    const a = model.card('org_1', 'crm', 2);
    const b = model.card('org_1', 'billing', 2);
    const c = model.card('org_1', 'nope', 1);
    gate.resolve();
    expect(await Promise.all([a, b, c])).toEqual([expect.objectContaining({ id: 'crm' }), expect.objectContaining({ id: 'billing' }), null]);
    expect(registry.calls).toHaveLength(1);
  });

  it('fetches once more when the shared fetch read an older snapshot than a later caller needs', async () => {
    const gate = deferred<void>();
    registry.hold = gate;
    const early = model.card('org_1', 'crm', 2);
    // The registry commits version 3 and the board moves while the first fetch is in flight.
    registry.set('org_1', 3, [cardEvent('crm', 2), cardEvent('billing', 1), cardEvent('hr', 3)]);
    const late = model.card('org_1', 'hr', 3);
    gate.resolve();
    expect(await early).toMatchObject({ id: 'crm' });
    expect(await late).toMatchObject({ id: 'hr' });
    expect(registry.calls).toHaveLength(2);
  });

  it('keeps orgs apart', async () => {
    registry.set('org_2', 1, [cardEvent('crm', 1, { shadow: true })]);
    await warm();
    expect(await model.card('org_2', 'crm', 1)).toMatchObject({ shadow: true });
    expect(model.card('org_1', 'crm', 2)).toMatchObject({ shadow: false });
    expect(registry.calls).toEqual(['org_1', 'org_2']);
  });
});
