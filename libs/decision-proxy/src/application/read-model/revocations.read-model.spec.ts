import type { MandateEventV1, MandateIssuerApi, RevocationsDto } from '@igw/contracts';
import { MemoryVersionBoard } from '@igw/events';
import { DependencyUnavailableError, FixedClock } from '@igw/kernel';
import { InMemoryRevocationSet } from '../verification/revocation-set';
import { RevocationsReadModel } from './revocations.read-model';

const T0 = new Date('2026-11-22T12:00:00Z');
const LATER = '2026-11-22T13:00:00.000Z';

interface Revocation {
  version: number;
  cred_id: string;
}

/** The issuer's revocations per org, numbered by the org's revocation counter. */
class FakeIssuer implements Pick<MandateIssuerApi, 'revocationsSince' | 'orgsWithRevocations'> {
  readonly orgs = new Map<string, Revocation[]>();
  calls: [string, number][] = [];
  failing = false;
  /** Pretends the counter is this much behind what it holds (a lagging replica). */
  lag = 0;
  hold: Promise<void> | null = null;

  revoke(orgId: string, credId: string): number {
    const list = this.orgs.get(orgId) ?? [];
    const version = list.length + 1;
    list.push({ version, cred_id: credId });
    this.orgs.set(orgId, list);
    return version;
  }

  async revocationsSince(orgId: string, after: number): Promise<RevocationsDto> {
    this.calls.push([orgId, after]);
    if (this.failing) throw new Error('issuer down');
    const list = (this.orgs.get(orgId) ?? []).slice(0, Math.max(0, (this.orgs.get(orgId)?.length ?? 0) - this.lag));
    const page = { version: list.at(-1)?.version ?? 0, revoked: list.filter((r) => r.version > after).map((r) => ({ cred_id: r.cred_id, expires_at: LATER })) };
    if (this.hold) await this.hold;
    return page;
  }

  async orgsWithRevocations() {
    if (this.failing) throw new Error('issuer down');
    return { org_ids: [...this.orgs.keys()] };
  }
}

function revokedEvent(credId: string, revocationVersion: number | null, status: MandateEventV1['status'] = 'revoked'): MandateEventV1 {
  return {
    cred_id: credId,
    actor: 'agent-1',
    intent_id: 'crm',
    prompt_id: 'prm_1',
    audience: 'crm-api',
    scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/*'], forbidden_operations: [] },
    status,
    kid: 'k1',
    issued_at: '2026-11-22T11:55:00.000Z',
    expires_at: LATER,
    revoked_at: status === 'revoked' ? '2026-11-22T11:59:00.000Z' : null,
    revoke_reason: null,
    refresh_count: 0,
    broker_kind: null,
    revocation_version: revocationVersion,
  };
}

describe('RevocationsReadModel', () => {
  let issuer: FakeIssuer;
  let set: InMemoryRevocationSet;
  let model: RevocationsReadModel;

  beforeEach(() => {
    issuer = new FakeIssuer();
    set = new InMemoryRevocationSet(new FixedClock(T0));
    model = new RevocationsReadModel(set, issuer, new MemoryVersionBoard());
  });

  it('loads an org it never loaded even when the board reads 0 (a restart, a board that lost its values), then answers from memory', async () => {
    issuer.revoke('org_1', 'mnd_a');
    const load = model.ensure('org_1', 0);
    expect(load).toBeInstanceOf(Promise);
    await load;
    expect(set.isRevoked('mnd_a')).toBe(true);
    expect(model.ensure('org_1', 0)).toBeUndefined();
    expect(model.ensure('org_1', 1)).toBeUndefined();
    expect(issuer.calls).toEqual([['org_1', 0]]);
  });

  it('warm() loads every org that ever revoked, so the first call needs no issuer', async () => {
    issuer.revoke('org_1', 'mnd_a');
    issuer.revoke('org_2', 'mnd_b');
    expect(model.model.ready).toBe(false);
    await model.model.warm();
    expect(model.model.ready).toBe(true);
    expect(set.isRevoked('mnd_a') && set.isRevoked('mnd_b')).toBe(true);
    expect(model.ensure('org_1', 1)).toBeUndefined();
    expect(model.ensure('org_2', 1)).toBeUndefined();
  });

  it('warm() rejects while the issuer is down and stays not ready', async () => {
    issuer.failing = true;
    await expect(model.model.warm()).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(model.model.ready).toBe(false);
  });

  it('reads the revocations from the issuer on cold start, then is current', async () => {
    issuer.revoke('org_1', 'mnd_a');
    issuer.revoke('org_1', 'mnd_b');
    const catchUp = model.ensure('org_1', 2);
    expect(catchUp).toBeInstanceOf(Promise);
    await catchUp;
    expect(issuer.calls).toEqual([['org_1', 0]]);
    expect(set.isRevoked('mnd_a')).toBe(true);
    expect(set.isRevoked('mnd_b')).toBe(true);
    expect(set.isRevoked('mnd_c')).toBe(false);
    expect(model.ensure('org_1', 2)).toBeUndefined();
    expect(model.ensure('org_1', 1)).toBeUndefined();
  });

  it('catches up from what it applied and adds the newly revoked ids', async () => {
    issuer.revoke('org_1', 'mnd_a');
    await model.ensure('org_1', 1);
    issuer.revoke('org_1', 'mnd_b');
    issuer.revoke('org_1', 'mnd_c');
    expect(set.isRevoked('mnd_b')).toBe(false);
    await model.ensure('org_1', 3);
    expect(issuer.calls).toEqual([
      ['org_1', 0],
      ['org_1', 1],
    ]);
    expect(set.isRevoked('mnd_b')).toBe(true);
    expect(set.isRevoked('mnd_c')).toBe(true);
    expect(model.ensure('org_1', 3)).toBeUndefined();
  });

  it('applies a revocation event into the set and moves forward when it is the next counter value', async () => {
    issuer.revoke('org_1', 'mnd_a');
    await model.ensure('org_1', 1);
    model.apply('org_1', revokedEvent('mnd_b', 2));
    expect(set.isRevoked('mnd_b')).toBe(true);
    expect(model.ensure('org_1', 2)).toBeUndefined();
    expect(issuer.calls).toHaveLength(1);
  });

  it('puts an event ahead of the counter into the set at once, but still catches up the gap', async () => {
    issuer.revoke('org_1', 'mnd_a');
    issuer.revoke('org_1', 'mnd_b');
    issuer.revoke('org_1', 'mnd_c');
    model.apply('org_1', revokedEvent('mnd_c', 3));
    expect(set.isRevoked('mnd_c')).toBe(true);
    const catchUp = model.ensure('org_1', 3);
    expect(catchUp).toBeInstanceOf(Promise);
    await catchUp;
    expect(set.isRevoked('mnd_a')).toBe(true);
    expect(model.ensure('org_1', 3)).toBeUndefined();
  });

  it('ignores events that are not revocations; a revocation without a counter only feeds the set', async () => {
    model.apply('org_1', revokedEvent('mnd_x', 1, 'active'));
    expect(set.isRevoked('mnd_x')).toBe(false);
    const behind = model.ensure('org_1', 1);
    expect(behind).toBeInstanceOf(Promise);

    model.apply('org_2', revokedEvent('mnd_y', null));
    expect(set.isRevoked('mnd_y')).toBe(true);
    const stillBehind = model.ensure('org_2', 1);
    expect(stillBehind).toBeInstanceOf(Promise);
    // The issuer knows of no revocation at all here: both fail closed.
    await expect(behind).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(stillBehind).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('is idempotent for a repeated event', async () => {
    await model.ensure('org_1', 0);
    model.apply('org_1', revokedEvent('mnd_a', 1));
    model.apply('org_1', revokedEvent('mnd_a', 1));
    expect(model.ensure('org_1', 1)).toBeUndefined();
    model.apply('org_1', revokedEvent('mnd_b', 2));
    expect(model.ensure('org_1', 2)).toBeUndefined();
  });

  it('fails closed with DependencyUnavailableError when the issuer throws', async () => {
    issuer.failing = true;
    const err = await model.ensure('org_1', 1)!.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DependencyUnavailableError);
    expect((err as DependencyUnavailableError).dependency).toBe('mandate-issuer');
    issuer.failing = false;
    issuer.revoke('org_1', 'mnd_a');
    await model.ensure('org_1', 1);
    expect(set.isRevoked('mnd_a')).toBe(true);
  });

  it('fails closed when the issuer answers older than the board, after one more try', async () => {
    issuer.revoke('org_1', 'mnd_a');
    issuer.revoke('org_1', 'mnd_b');
    issuer.lag = 1;
    await expect(model.ensure('org_1', 2)).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(issuer.calls).toEqual([
      ['org_1', 0],
      ['org_1', 1],
    ]);
    // What it did read is applied.
    expect(set.isRevoked('mnd_a')).toBe(true);
    expect(model.ensure('org_1', 1)).toBeUndefined();
  });

  it('shares one issuer fetch between concurrent calls', async () => {
    issuer.revoke('org_1', 'mnd_a');
    let release!: () => void;
    issuer.hold = new Promise<void>((r) => (release = r));
    const a = model.ensure('org_1', 1);
    const b = model.ensure('org_1', 1);
    release();
    await Promise.all([a, b]);
    expect(issuer.calls).toHaveLength(1);
    expect(set.isRevoked('mnd_a')).toBe(true);
  });

  it('keeps orgs apart', async () => {
    issuer.revoke('org_1', 'mnd_a');
    issuer.revoke('org_2', 'mnd_b');
    await model.ensure('org_1', 1);
    expect(set.isRevoked('mnd_b')).toBe(false);
    const other = model.ensure('org_2', 1);
    expect(other).toBeInstanceOf(Promise);
    await other;
    expect(set.isRevoked('mnd_b')).toBe(true);
    expect(issuer.calls).toEqual([
      ['org_1', 0],
      ['org_2', 0],
    ]);
  });
});
