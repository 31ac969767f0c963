import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEvent, Topics, type DecisionMadeV1, type EventEnvelope } from '@igw/contracts';
import { decodeCursor, DependencyUnavailableError, RecordRefusedError, toPage, type PageKey } from '@igw/kernel';
import { openPostgresDatabase, SqlDeadLetters, type ServiceDatabase } from '@igw/persistence';
import {
  DEAD_DATABASE_URL,
  dropTestSchema,
  openMigratedSchema,
  testSchemaName,
  atTestTime as at,
  uniqueOrgId as newOrg,
  randomHex as rnd,
} from '@igw/persistence/testing';
import { toDecisionMadeV1 } from '../../application/decision-made.payload';
import { type DecisionRecord, type ReviewStatus } from '../../domain';
import type { ResolveReviewResult } from '../../application/ports/decision.repository.port';
import { DECISION_PROXY_MIGRATIONS } from '../../decision-proxy.module';
import { replayLegacyJournal } from '../legacy/legacy-journal.replay';
import { SqlDecisionRepository } from './sql-decision.repository';

const schema = testSchemaName('decisions');

let seq = 0;
/** An `allow` decision by default; `review()` makes a deferred one. */
function record(orgId: string, over: Partial<DecisionRecord> = {}): DecisionRecord {
  seq++;
  const decisionId = over.decisionId ?? `dec_${rnd()}_${seq}`;
  return {
    decisionId,
    orgId,
    keyId: 'key_agent',
    kind: 'allow',
    ruleId: null,
    stage: 'default',
    reason: null,
    shadowKind: null,
    decision: { kind: 'allow', decision_id: decisionId },
    credId: `mnd_${seq}`,
    intentId: 'crm-card',
    promptId: `prm_${seq}`,
    actor: 'agent:billing-bot',
    audience: 'https://crm.example.com',
    surface: 'mcp',
    operation: 'crm.contacts.read',
    targetResource: 'crm:customers/42',
    argumentsSha256: 'a'.repeat(64),
    approvalRequestId: null,
    reviewId: null,
    reviewStatus: null,
    reviewedAt: null,
    reviewedByKeyId: null,
    reviewNote: null,
    createdAt: at(seq),
    ...over,
  };
}

function review(orgId: string, over: Partial<DecisionRecord> = {}): DecisionRecord {
  const decisionId = over.decisionId ?? `dec_${rnd()}_${seq + 1}`;
  const reviewId = over.reviewId ?? `rev_${rnd()}_${seq + 1}`;
  return record(orgId, {
    decisionId,
    kind: 'defer',
    ruleId: 'rule_defer_writes',
    stage: 'rule',
    decision: { kind: 'defer', decision_id: decisionId, rule_id: 'rule_defer_writes', review_id: reviewId },
    reviewId,
    reviewStatus: 'pending',
    ...over,
  });
}

type OutboxRow = { seq: string; id: string; topic: string; key: string; envelope: EventEnvelope<DecisionMadeV1> };

describe('SqlDecisionRepository (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let repo: SqlDecisionRepository;
  let nudges = 0;
  const others: ServiceDatabase[] = [];

  const rows = async (orgId: string) =>
    (await db.query<{ decision_id: string }>(`SELECT decision_id FROM "${schema}"."decisions" WHERE org_id = $1 ORDER BY decision_id`, [orgId])).map(
      (r) => r.decision_id,
    );
  const outbox = async (orgId: string) =>
    db.query<OutboxRow>(`SELECT seq, id, topic, key, envelope FROM "${schema}"."outbox_events" WHERE key = $1 ORDER BY seq`, [orgId]);
  const outboxIds = async (orgId: string) => (await outbox(orgId)).map((r) => r.envelope.data.decision_id);
  const sorted = (ids: string[]) => [...ids].sort();

  beforeAll(async () => {
    db = await openMigratedSchema(schema, DECISION_PROXY_MIGRATIONS, 12);
    repo = new SqlDecisionRepository(db, { nudge: () => void nudges++ }, new SqlDeadLetters(db));
  });

  /** Records submitted in one turn of the event loop: one group commit (one transaction). */
  const saveAll = (records: readonly DecisionRecord[]) => Promise.all(records.map((r) => repo.record(r))).then(() => undefined);

  afterAll(async () => {
    for (const o of others) await o.close().catch(() => undefined);
    await dropTestSchema(db);
  });

  it('a group commit stores the records and exactly one decision.made outbox row each, in batch order, and nudges the relay once', async () => {
    const org = newOrg('save');
    const batch = [
      record(org, { kind: 'allow', ruleId: 'rule_reads', stage: 'rule', decision: { kind: 'allow', decision_id: 'x', rule_id: 'rule_reads' } }),
      record(org, {
        kind: 'deny',
        reason: 'forbidden_operation',
        stage: 'scope',
        targetResource: null,
        decision: { kind: 'deny', decision_id: 'y', reason: 'forbidden_operation', message: 'no' },
      }),
      record(org, {
        kind: 'allow_with_shadow',
        shadowKind: 'deny',
        decision: { kind: 'allow_with_shadow', decision_id: 'z', shadow_decision: { kind: 'deny' } },
      }),
      review(org),
    ];
    const before = nudges;
    await saveAll(batch);
    expect(nudges).toBe(before + 1);

    expect(await rows(org)).toEqual(sorted(batch.map((r) => r.decisionId)));
    const events = await outbox(org);
    expect(events).toHaveLength(batch.length);
    events.forEach((row, i) => {
      const r = batch[i]!;
      expect(row.topic).toBe('proxy.decision.made.v1');
      expect(row.topic).toBe(Topics.DecisionMade.name);
      expect(row.key).toBe(org);
      expect(row.id).toBe(row.envelope.id);
      expect(row.envelope).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: 'proxy.decision.made.v1',
        org_id: org,
        occurred_at: r.createdAt.toISOString(),
        schema_version: 1,
        data: toDecisionMadeV1(r),
      });
      expect(row.envelope.data).toMatchObject({
        decision_id: r.decisionId,
        kind: r.kind,
        rule_id: r.ruleId,
        cred_id: r.credId,
        reason: r.reason,
        shadow_decision: r.shadowKind,
      });
      expect(() => parseEvent(row.envelope)).not.toThrow();
    });
    expect(new Set(events.map((e) => e.id)).size).toBe(batch.length);

    // An empty batch touches nothing.
    await saveAll([]);
    expect(nudges).toBe(before + 1);
  });

  it('a group commit of ids already stored inserts nothing twice; a mixed batch adds rows and events only for the new ids', async () => {
    const org = newOrg('idem');
    const old = [record(org), record(org), review(org)];
    await saveAll(old);
    const firstEvents = await outbox(org);
    expect(firstEvents).toHaveLength(3);

    // The same ids again (even with different content): nothing changes, the first write stays.
    await saveAll(old.map((r) => ({ ...r, reason: 'changed', operation: 'crm.contacts.delete' })));
    expect(await rows(org)).toEqual(sorted(old.map((r) => r.decisionId)));
    expect(await outbox(org)).toEqual(firstEvents);
    expect(await repo.findByDecisionId(org, old[0]!.decisionId)).toEqual(old[0]);

    const fresh = [record(org), review(org)];
    await saveAll([old[0]!, fresh[0]!, old[2]!, fresh[1]!, old[1]!]);
    expect(await rows(org)).toEqual(sorted([...old, ...fresh].map((r) => r.decisionId)));
    const events = await outbox(org);
    expect(events.slice(0, 3)).toEqual(firstEvents);
    expect(events.slice(3).map((e) => e.envelope.data.decision_id)).toEqual(fresh.map((r) => r.decisionId));
  });

  it('concurrent group commits of overlapping batches store each decision and its event once', async () => {
    const org = newOrg('race');
    const all = Array.from({ length: 40 }, () => record(org));
    // Eight writers, each with a different overlapping window, all at once.
    await Promise.all(Array.from({ length: 8 }, (_, w) => saveAll(all.slice(w * 4, w * 4 + 12))));
    const expected = sorted(all.slice(0, 7 * 4 + 12).map((r) => r.decisionId));
    expect(await rows(org)).toEqual(expected);
    expect(sorted(await outboxIds(org))).toEqual(expected);
  });

  it('the same decision id twice within one batch is stored once with one event', async () => {
    const org = newOrg('dup');
    const r = record(org);
    await saveAll([r, { ...r }]);
    expect(await rows(org)).toEqual([r.decisionId]);
    expect(await outboxIds(org)).toEqual([r.decisionId]);
  });

  it('records round-trip through findByDecisionId field for field (decision JSON, dates, nulls)', async () => {
    const org = newOrg('roundtrip');
    const decisionId = `dec_full_${rnd()}`;
    const full = review(org, {
      decisionId,
      keyId: 'key_operator_1',
      shadowKind: null,
      reason: 'needs a human',
      decision: {
        kind: 'defer',
        decision_id: decisionId,
        rule_id: 'rule_defer_writes',
        review_id: 'rev_full',
        nested: { list: [1, 2.5, 'x', null, true], empty: {}, unicode: 'Zürich ✓ 日本', quote: 'a "b" \\ c' },
      },
      reviewId: `rev_full_${rnd()}`,
      reviewStatus: 'rejected',
      reviewedAt: at(61_789),
      reviewedByKeyId: 'key_operator_2',
      reviewNote: 'not today — ✗',
      approvalRequestId: 'apr_123',
      targetResource: 'crm:customers/ü/1',
      argumentsSha256: 'f'.repeat(64),
      createdAt: at(1_234),
    });
    const bare = record(org, { targetResource: null, createdAt: new Date('2026-03-01T23:59:59.999Z') });
    await saveAll([full, bare]);

    const gotFull = await repo.findByDecisionId(org, full.decisionId);
    expect(gotFull).toEqual(full);
    expect(gotFull!.createdAt).toBeInstanceOf(Date);
    expect(gotFull!.reviewedAt).toBeInstanceOf(Date);
    expect(gotFull!.createdAt.toISOString()).toBe(full.createdAt.toISOString());
    expect(gotFull!.reviewedAt!.toISOString()).toBe(full.reviewedAt!.toISOString());

    const gotBare = await repo.findByDecisionId(org, bare.decisionId);
    expect(gotBare).toEqual(bare);
    expect(gotBare!.createdAt.toISOString()).toBe('2026-03-01T23:59:59.999Z');
    // Nullable columns are SQL NULL (not JSON null / the string "null").
    const [nulls] = await db.query<Record<string, boolean>>(
      `SELECT rule_id IS NULL AS rule, review_id IS NULL AS review, reviewed_at IS NULL AS reviewed, target_resource IS NULL AS target
         FROM "${schema}"."decisions" WHERE decision_id = $1`,
      [bare.decisionId],
    );
    expect(nulls).toEqual({ rule: true, review: true, reviewed: true, target: true });
  });

  it("findByDecisionId of another org's decision, or an unknown id, is null", async () => {
    const org = newOrg('mine');
    const r = record(org);
    await saveAll([r]);
    expect(await repo.findByDecisionId(newOrg('other'), r.decisionId)).toBeNull();
    expect(await repo.findByDecisionId(org, 'dec_missing')).toBeNull();
    expect(await repo.findByDecisionId(org, r.decisionId)).toEqual(r);
  });

  describe('listDecisions', () => {
    const org = newOrg('list');
    let all: DecisionRecord[];
    /** Newest first, decision_id breaking ties. */
    const order = (rs: DecisionRecord[]) =>
      [...rs].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.decisionId < b.decisionId ? 1 : a.decisionId > b.decisionId ? -1 : 0));
    const walk = async (limit: number, q: { credId?: string; kind?: DecisionRecord['kind']; since?: Date; until?: Date } = {}) => {
      const ids: string[] = [];
      let after: PageKey | null = null;
      for (let guard = 0; guard < 100; guard++) {
        const got = await repo.listDecisions(org, { limit, after, ...q });
        const page = toPage(
          got.map((r) => ({ createdAt: r.createdAt, id: r.decisionId, r })),
          limit,
        );
        ids.push(...page.items.map((k) => k.r.decisionId));
        if (!page.nextCursor) return ids;
        after = decodeCursor(page.nextCursor);
      }
      throw new Error('paging did not end');
    };

    beforeAll(async () => {
      const kinds = ['allow', 'deny', 'allow', 'defer', 'allow', 'approval', 'deny', 'allow'] as const;
      all = kinds.map((kind, i) =>
        (kind === 'defer' ? review : record)(org, {
          kind,
          credId: i % 2 === 0 ? 'cred_even' : 'cred_odd',
          // Pairs share a created_at: decision_id breaks the tie.
          createdAt: at(300_000 + Math.floor(i / 2) * 1000),
          decisionId: `dec_list_${String.fromCharCode(104 - i)}_${rnd()}`,
        }),
      );
      await saveAll([...all, record(newOrg('list_other'), { createdAt: at(300_500) })]);
    });

    it("pages through the org's decisions newest first, disjoint and complete, whatever the page size", async () => {
      for (const limit of [1, 3, 8, 50]) expect(await walk(limit)).toEqual(order(all).map((r) => r.decisionId));
    });

    it('filters by mandate, by kind and by time range (since inclusive, until exclusive)', async () => {
      expect(await walk(2, { credId: 'cred_odd' })).toEqual(order(all.filter((r) => r.credId === 'cred_odd')).map((r) => r.decisionId));
      expect(await walk(2, { kind: 'deny' })).toEqual(order(all.filter((r) => r.kind === 'deny')).map((r) => r.decisionId));
      const since = at(301_000);
      const until = at(303_000);
      expect(await walk(2, { since, until })).toEqual(order(all.filter((r) => r.createdAt >= since && r.createdAt < until)).map((r) => r.decisionId));
      expect(await repo.listDecisions(newOrg('list_empty'), { limit: 5, after: null })).toEqual([]);
    });
  });

  describe('listReviews', () => {
    const org = newOrg('reviews');
    const other = newOrg('reviews_other');
    let reviews: DecisionRecord[];
    /** The org's reviews in list order: created_at desc, then review_id desc. */
    const listOrder = (rs: DecisionRecord[]) =>
      [...rs].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.reviewId! < b.reviewId! ? 1 : a.reviewId! > b.reviewId! ? -1 : 0));
    /** Pages through the queue as ListReviewsUseCase does (limit + 1 rows, toPage, cursor). */
    const walk = async (limit: number, status?: ReviewStatus) => {
      const pages: string[][] = [];
      let after: PageKey | null = null;
      for (let guard = 0; guard < 100; guard++) {
        const got = await repo.listReviews(org, { limit, status, after });
        expect(got.length).toBeLessThanOrEqual(limit + 1);
        const page = toPage(
          got.map((r) => ({ createdAt: r.createdAt, id: r.reviewId!, r })),
          limit,
        );
        pages.push(page.items.map((k) => k.r.reviewId!));
        if (!page.nextCursor) return pages;
        after = decodeCursor(page.nextCursor);
      }
      throw new Error('paging did not end');
    };

    beforeAll(async () => {
      const statuses: ReviewStatus[] = [
        'pending',
        'accepted',
        'pending',
        'rejected',
        'pending',
        'pending',
        'accepted',
        'pending',
        'pending',
        'rejected',
        'pending',
      ];
      reviews = statuses.map((status, i) =>
        review(org, {
          // Three pairs share a created_at: review_id breaks the tie.
          createdAt: at(100_000 + Math.floor(i / 2) * 1000 + (i > 8 ? i : 0)),
          reviewId: `rev_${String.fromCharCode(97 + ((i * 7) % 11))}_${rnd()}`,
          reviewStatus: status,
          reviewedAt: status === 'pending' ? null : at(200_000 + i),
          reviewedByKeyId: status === 'pending' ? null : 'key_op',
        }),
      );
      // Noise: the org's non-review decisions and another org's reviews.
      const noise = [
        record(org, { createdAt: at(150_000) }),
        record(org, { kind: 'deny', reason: 'scope_outside_intent' }),
        review(other, { createdAt: at(150_000) }),
        review(other),
      ];
      await saveAll([...reviews.slice(0, 5), noise[0]!, noise[2]!, ...reviews.slice(5), noise[1]!, noise[3]!]);
    });

    it("returns only the org's decisions with a review_id, newest first (review_id breaking ties)", async () => {
      const got = await repo.listReviews(org, { limit: 100 });
      expect(got.map((r) => r.reviewId)).toEqual(listOrder(reviews).map((r) => r.reviewId));
      expect(got.every((r) => r.orgId === org && r.reviewId !== null)).toBe(true);
      const byId = new Map(reviews.map((r) => [r.decisionId, r]));
      for (const r of got) expect(r).toEqual(byId.get(r.decisionId));
      expect(await repo.listReviews(newOrg('empty'), { limit: 10 })).toEqual([]);
    });

    it('filters by status', async () => {
      for (const status of ['pending', 'accepted', 'rejected'] as const) {
        const got = await repo.listReviews(org, { limit: 100, status });
        expect(got.map((r) => r.reviewId)).toEqual(listOrder(reviews.filter((r) => r.reviewStatus === status)).map((r) => r.reviewId));
      }
    });

    it('returns at most limit + 1 rows (the extra one tells there is a next page)', async () => {
      expect(await repo.listReviews(org, { limit: 3 })).toHaveLength(4);
      expect((await repo.listReviews(org, { limit: 3 })).map((r) => r.reviewId)).toEqual(
        listOrder(reviews)
          .slice(0, 4)
          .map((r) => r.reviewId),
      );
    });

    it.each([1, 2, 3, 4, 11, 50])('keyset pages of %i are disjoint and cover the queue in order', async (limit) => {
      const pages = await walk(limit);
      const flat = pages.flat();
      expect(new Set(flat).size).toBe(flat.length);
      expect(flat).toEqual(listOrder(reviews).map((r) => r.reviewId));
      for (const p of pages) expect(p.length).toBeLessThanOrEqual(limit);
      expect(pages.length).toBe(Math.max(1, Math.ceil(reviews.length / limit)));
    });

    it('keyset paging works within a status filter', async () => {
      const pages = await walk(2, 'pending');
      const flat = pages.flat();
      expect(new Set(flat).size).toBe(flat.length);
      expect(flat).toEqual(listOrder(reviews.filter((r) => r.reviewStatus === 'pending')).map((r) => r.reviewId));
    });
  });

  describe('resolveReview', () => {
    const change = (status: 'accepted' | 'rejected', keyId = 'key_op_1', note: string | null = 'looks fine', ms = 500_000) => ({
      status,
      keyId,
      note,
      at: at(ms),
    });

    it('moves a pending review to accepted, setting reviewed_at/by/note, and leaves the rest of the record as it was', async () => {
      const org = newOrg('resolve');
      const r = review(org);
      await saveAll([r]);
      const eventsBefore = await outbox(org);

      const res = await repo.resolveReview(org, r.reviewId!, change('accepted', 'key_op_1', 'ok — ✓', 500_123));
      const expected: DecisionRecord = { ...r, reviewStatus: 'accepted', reviewedAt: at(500_123), reviewedByKeyId: 'key_op_1', reviewNote: 'ok — ✓' };
      expect(res).toEqual({ ok: true, record: expected });
      expect(await repo.findByDecisionId(org, r.decisionId)).toEqual(expected);
      expect((await repo.listReviews(org, { limit: 10, status: 'accepted' })).map((x) => x.reviewId)).toEqual([r.reviewId]);
      expect(await repo.listReviews(org, { limit: 10, status: 'pending' })).toEqual([]);
      expect(await outbox(org)).toEqual(eventsBefore);
    });

    it('a second resolve answers already_resolved with the stored record, and changes nothing', async () => {
      const org = newOrg('twice');
      const r = review(org);
      await saveAll([r]);
      const first = await repo.resolveReview(org, r.reviewId!, change('accepted', 'key_op_1', null));
      expect(first.ok).toBe(true);
      const second = await repo.resolveReview(org, r.reviewId!, change('rejected', 'key_op_2', 'no'));
      expect(second).toEqual({
        ok: false,
        reason: 'already_resolved',
        record: { ...r, reviewStatus: 'accepted', reviewedAt: at(500_000), reviewedByKeyId: 'key_op_1', reviewNote: null },
      });
      const again = await repo.resolveReview(org, r.reviewId!, change('accepted', 'key_op_3'));
      expect(again.ok).toBe(false);
      expect(await repo.findByDecisionId(org, r.decisionId)).toEqual((first as { record: DecisionRecord }).record);
    });

    it("an unknown review, or another org's, is not_found (and the other org's stays pending)", async () => {
      const org = newOrg('nf');
      const r = review(org);
      await saveAll([r]);
      expect(await repo.resolveReview(org, 'rev_missing', change('accepted'))).toEqual({ ok: false, reason: 'not_found' });
      expect(await repo.resolveReview(newOrg('intruder'), r.reviewId!, change('rejected'))).toEqual({ ok: false, reason: 'not_found' });
      // A decision id is not a review id.
      expect(await repo.resolveReview(org, r.decisionId, change('accepted'))).toEqual({ ok: false, reason: 'not_found' });
      expect(await repo.findByDecisionId(org, r.decisionId)).toEqual(r);
    });

    it('10 concurrent resolves of one review: exactly one wins, the others see already_resolved with the winner', async () => {
      const org = newOrg('race_resolve');
      const r = review(org);
      await saveAll([r]);
      const results: ResolveReviewResult[] = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          repo.resolveReview(org, r.reviewId!, change(i % 2 ? 'rejected' : 'accepted', `key_op_${i}`, `note ${i}`, 600_000 + i)),
        ),
      );
      const winners = results.filter((x): x is Extract<ResolveReviewResult, { ok: true }> => x.ok);
      expect(winners).toHaveLength(1);
      const losers = results.filter((x) => !x.ok);
      expect(losers).toHaveLength(9);
      for (const l of losers) expect(l).toEqual({ ok: false, reason: 'already_resolved', record: winners[0]!.record });
      const stored = await repo.findByDecisionId(org, r.decisionId);
      expect(stored).toEqual(winners[0]!.record);
      const i = Number(stored!.reviewedByKeyId!.replace('key_op_', ''));
      expect(stored).toMatchObject({ reviewStatus: i % 2 ? 'rejected' : 'accepted', reviewNote: `note ${i}`, reviewedAt: at(600_000 + i) });
    });
  });

  it('a burst of 1000 records is stored in two group commits of 500, with 1000 events', async () => {
    const org = newOrg('bulk');
    const batch = Array.from({ length: 1000 }, (_, i) =>
      i % 10 === 0 ? review(org) : record(org, { kind: i % 3 ? 'allow' : 'deny', reason: i % 3 ? null : 'rule_denied' }),
    );
    const transaction = jest.spyOn(db, 'commit');
    try {
      await saveAll(batch);
      expect(transaction).toHaveBeenCalledTimes(2);
    } finally {
      transaction.mockRestore();
    }
    const ids = sorted(batch.map((r) => r.decisionId));
    expect(await rows(org)).toEqual(ids);
    expect(await outboxIds(org)).toEqual(batch.map((r) => r.decisionId));
    expect(await repo.listReviews(org, { limit: 200 })).toHaveLength(100);
  });

  it('an unreachable database rejects with DependencyUnavailableError and nudges nobody', async () => {
    const dead = openPostgresDatabase(DEAD_DATABASE_URL, schema, 2);
    others.push(dead);
    let deadNudges = 0;
    const deadRepo = new SqlDecisionRepository(dead, { nudge: () => void deadNudges++ }, new SqlDeadLetters(dead));
    const org = newOrg('dead');
    const outcomes = await Promise.allSettled([deadRepo.record(record(org)), deadRepo.record(review(org))]);
    expect(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof DependencyUnavailableError)).toBe(true);
    await expect(deadRepo.findByDecisionId(org, 'dec_x')).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(deadRepo.listReviews(org, { limit: 5 })).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(deadRepo.resolveReview(org, 'rev_x', change())).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(deadNudges).toBe(0);

    function change() {
      return { status: 'accepted' as const, keyId: 'k', note: null, at: at(0) };
    }
  });

  describe('poison', () => {
    const letters = async (kind = 'decision') =>
      db.query<{ record_id: string | null; org_id: string | null; reason: string; payload: string }>(
        `SELECT record_id, org_id, reason, payload FROM "${schema}"."dead_letters" WHERE kind = $1 ORDER BY seq`,
        [kind],
      );

    it("one org's decision the store refuses (a lone surrogate) is set aside; every other org's decision of the same commit is stored", async () => {
      const before = (await letters()).length;
      const orgA = newOrg('poison_a');
      const orgB = newOrg('poison_b');
      const poison = record(orgA, { operation: 'crm.read\ud800' });
      const others = Array.from({ length: 60 }, (_, i) => record(i % 2 ? orgB : orgA));
      const all = [...others.slice(0, 30), poison, ...others.slice(30)];
      const outcomes = await Promise.allSettled(all.map((r) => repo.record(r)));
      const refused = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [[all[i]!.decisionId, o.reason] as const] : []));
      expect(refused).toHaveLength(1);
      expect(refused[0]![0]).toBe(poison.decisionId);
      expect(refused[0]![1]).toBeInstanceOf(RecordRefusedError);

      expect(await rows(orgB)).toEqual(sorted(others.filter((r) => r.orgId === orgB).map((r) => r.decisionId)));
      expect(await rows(orgA)).toEqual(sorted(others.filter((r) => r.orgId === orgA).map((r) => r.decisionId)));
      expect(sorted(await outboxIds(orgB))).toEqual(await rows(orgB));
      const set = (await letters()).slice(before);
      expect(set).toHaveLength(1);
      expect(set[0]).toMatchObject({ record_id: poison.decisionId, org_id: orgA });
      expect(set[0]!.reason).toMatch(/json|unicode|surrogate/i);
      expect(JSON.parse(set[0]!.payload)).toMatchObject({ decisionId: poison.decisionId, operation: 'crm.read\ud800' });
      expect((await new SqlDeadLetters(db).stats()).count).toBeGreaterThanOrEqual(1);

      // Later decisions are not held up by it.
      const after = record(orgB);
      await repo.record(after);
      expect(await repo.findByDecisionId(orgB, after.decisionId)).toEqual(after);
    });
  });

  describe('a decision journal left by a version before 0.7', () => {
    const dirs: string[] = [];
    const newDir = () => {
      const d = mkdtempSync(join(tmpdir(), 'igw-legacy-journal-it-'));
      dirs.push(d);
      return d;
    };
    afterAll(() => {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });

    it('is stored once at start; poison and damaged lines are set aside, a torn last line skipped, the files removed; it never throws', async () => {
      const org = newOrg('legacy');
      const dir = newDir();
      const drained = record(org);
      await repo.record(drained);
      const fresh = [record(org), review(org), record(org)];
      const poison = record(org, { actor: 'agent\udc00' });
      const line = (r: DecisionRecord) => JSON.stringify(r);
      writeFileSync(join(dir, 'segment-000000000001.ndjson'), [line(drained), line(fresh[0]!), 'not json at all', line(poison)].join('\n') + '\n');
      writeFileSync(
        join(dir, 'segment-000000000002.ndjson'),
        [line(fresh[1]!), line(fresh[2]!)].join('\n') + `\n{"decisionId":"dec_torn","orgId":"${org}","ki`,
      );
      writeFileSync(join(dir, 'journal.lock'), 'gone-host:1');

      const result = await replayLegacyJournal(dir, repo, new SqlDeadLetters(db));
      expect(result).toEqual({ stored: 4, setAside: 2, complete: true });
      const ids = sorted([drained, ...fresh].map((r) => r.decisionId));
      expect(await rows(org)).toEqual(ids);
      expect(sorted(await outboxIds(org))).toEqual(ids);
      expect(await repo.findByDecisionId(org, fresh[1]!.decisionId)).toEqual(fresh[1]);
      expect(readdirSync(dir)).toEqual([]);
    });

    it('a missing directory is nothing to do', async () => {
      expect(await replayLegacyJournal(join(newDir(), 'absent'), repo, new SqlDeadLetters(db))).toEqual({ stored: 0, setAside: 0, complete: true });
    });
  });
});
