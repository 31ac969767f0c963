import { decodeCursor, toPage, type PageKey } from '@igw/kernel';
import { atTestTime as at, uniqueOrgId as newOrg, randomHex as rnd } from '@igw/persistence/testing';
import { type DecisionRecord, type ReviewStatus } from '../../domain';
import type { ResolveReviewResult } from '../../application/ports/decision.repository.port';
import { record, review, decisionRepositoryUnderTest } from './sql-decision.repository.fixture';

// listDecisions, listReviews and resolveReview; storing decisions: sql-decision.repository.int-spec.ts.
describe('SqlDecisionRepository (PostgreSQL)', () => {
  const t = decisionRepositoryUnderTest();
  const { outbox, saveAll } = t;

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
        const got = await t.repo.listDecisions(org, { limit, after, ...q });
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
      expect(await t.repo.listDecisions(newOrg('list_empty'), { limit: 5, after: null })).toEqual([]);
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
        const got = await t.repo.listReviews(org, { limit, status, after });
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
      const got = await t.repo.listReviews(org, { limit: 100 });
      expect(got.map((r) => r.reviewId)).toEqual(listOrder(reviews).map((r) => r.reviewId));
      expect(got.every((r) => r.orgId === org && r.reviewId !== null)).toBe(true);
      const byId = new Map(reviews.map((r) => [r.decisionId, r]));
      for (const r of got) expect(r).toEqual(byId.get(r.decisionId));
      expect(await t.repo.listReviews(newOrg('empty'), { limit: 10 })).toEqual([]);
    });

    it('filters by status', async () => {
      for (const status of ['pending', 'accepted', 'rejected'] as const) {
        const got = await t.repo.listReviews(org, { limit: 100, status });
        expect(got.map((r) => r.reviewId)).toEqual(listOrder(reviews.filter((r) => r.reviewStatus === status)).map((r) => r.reviewId));
      }
    });

    it('returns at most limit + 1 rows (the extra one tells there is a next page)', async () => {
      expect(await t.repo.listReviews(org, { limit: 3 })).toHaveLength(4);
      expect((await t.repo.listReviews(org, { limit: 3 })).map((r) => r.reviewId)).toEqual(
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

      const res = await t.repo.resolveReview(org, r.reviewId!, change('accepted', 'key_op_1', 'ok — ✓', 500_123));
      const expected: DecisionRecord = { ...r, reviewStatus: 'accepted', reviewedAt: at(500_123), reviewedByKeyId: 'key_op_1', reviewNote: 'ok — ✓' };
      expect(res).toEqual({ ok: true, record: expected });
      expect(await t.repo.findByDecisionId(org, r.decisionId)).toEqual(expected);
      expect((await t.repo.listReviews(org, { limit: 10, status: 'accepted' })).map((x) => x.reviewId)).toEqual([r.reviewId]);
      expect(await t.repo.listReviews(org, { limit: 10, status: 'pending' })).toEqual([]);
      expect(await outbox(org)).toEqual(eventsBefore);
    });

    it('a second resolve answers already_resolved with the stored record, and changes nothing', async () => {
      const org = newOrg('twice');
      const r = review(org);
      await saveAll([r]);
      const first = await t.repo.resolveReview(org, r.reviewId!, change('accepted', 'key_op_1', null));
      expect(first.ok).toBe(true);
      const second = await t.repo.resolveReview(org, r.reviewId!, change('rejected', 'key_op_2', 'no'));
      expect(second).toEqual({
        ok: false,
        reason: 'already_resolved',
        record: { ...r, reviewStatus: 'accepted', reviewedAt: at(500_000), reviewedByKeyId: 'key_op_1', reviewNote: null },
      });
      const again = await t.repo.resolveReview(org, r.reviewId!, change('accepted', 'key_op_3'));
      expect(again.ok).toBe(false);
      expect(await t.repo.findByDecisionId(org, r.decisionId)).toEqual((first as { record: DecisionRecord }).record);
    });

    it("an unknown review, or another org's, is not_found (and the other org's stays pending)", async () => {
      const org = newOrg('nf');
      const r = review(org);
      await saveAll([r]);
      expect(await t.repo.resolveReview(org, 'rev_missing', change('accepted'))).toEqual({ ok: false, reason: 'not_found' });
      expect(await t.repo.resolveReview(newOrg('intruder'), r.reviewId!, change('rejected'))).toEqual({ ok: false, reason: 'not_found' });
      // A decision id is not a review id.
      expect(await t.repo.resolveReview(org, r.decisionId, change('accepted'))).toEqual({ ok: false, reason: 'not_found' });
      expect(await t.repo.findByDecisionId(org, r.decisionId)).toEqual(r);
    });

    it('10 concurrent resolves of one review: exactly one wins, the others see already_resolved with the winner', async () => {
      const org = newOrg('race_resolve');
      const r = review(org);
      await saveAll([r]);
      const results: ResolveReviewResult[] = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.repo.resolveReview(org, r.reviewId!, change(i % 2 ? 'rejected' : 'accepted', `key_op_${i}`, `note ${i}`, 600_000 + i)),
        ),
      );
      const winners = results.filter((x): x is Extract<ResolveReviewResult, { ok: true }> => x.ok);
      expect(winners).toHaveLength(1);
      const losers = results.filter((x) => !x.ok);
      expect(losers).toHaveLength(9);
      for (const l of losers) expect(l).toEqual({ ok: false, reason: 'already_resolved', record: winners[0]!.record });
      const stored = await t.repo.findByDecisionId(org, r.decisionId);
      expect(stored).toEqual(winners[0]!.record);
      const i = Number(stored!.reviewedByKeyId!.replace('key_op_', ''));
      expect(stored).toMatchObject({ reviewStatus: i % 2 ? 'rejected' : 'accepted', reviewNote: `note ${i}`, reviewedAt: at(600_000 + i) });
    });
  });
});
