import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEvent, Topics } from '@igw/contracts';
import { DependencyUnavailableError, RecordRefusedError } from '@igw/kernel';
import { openPostgresDatabase, SqlDeadLetters, StatCountsTable } from '@igw/persistence';
import { DEAD_DATABASE_URL, atTestTime as at, uniqueOrgId as newOrg, randomHex as rnd } from '@igw/persistence/testing';
import { toDecisionMadeV1 } from '../../application/decision-made.payload';
import { ReadDecisionStatsUseCase } from '../../application/use-cases/read-decision-stats.use-case';
import { type DecisionRecord } from '../../domain';
import { replayLegacyJournal } from '../legacy/legacy-journal.replay';
import { SqlDecisionRepository } from './sql-decision.repository';
import { record, review, decisionRepositoryUnderTest } from './sql-decision.repository.fixture';

// Storing decisions (group commits, events, poison, the legacy journal); listing and reviews:
// sql-decision.repository.lists.int-spec.ts.
describe('SqlDecisionRepository (PostgreSQL)', () => {
  const t = decisionRepositoryUnderTest();
  const { rows, outbox, outboxIds, sorted, saveAll } = t;

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
    const before = t.nudges;
    await saveAll(batch);
    expect(t.nudges).toBe(before + 1);

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
    expect(t.nudges).toBe(before + 1);
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
    expect(await t.repo.findByDecisionId(org, old[0]!.decisionId)).toEqual(old[0]);

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

  it('counts each new decision in the overview with its row, exactly once: a decision stored again is not counted again', async () => {
    const org = newOrg('counted');
    const kinds = ['allow', 'deny', 'deny_with_reroute', 'defer'] as const;
    const records = Array.from({ length: 20 }, (_, i) =>
      record(org, {
        kind: kinds[i % 4],
        intentId: i < 15 ? 'crm-card' : 'fs-card',
        operation: i % 4 === 1 ? 'crm.contacts.delete' : 'crm.contacts.read',
        createdAt: at(i),
      }),
    );
    await t.saveAll(records);
    // Retried: the same ids again, in a batch with one new decision.
    const extra = record(org, { kind: 'allow', createdAt: at(30) });
    await t.saveAll([...records.slice(0, 5), extra]);
    const stats = await new ReadDecisionStatsUseCase(new StatCountsTable(t.db)).read(org, '1h', at(60_000));
    expect(stats.decisions).toMatchObject({ total: 21, by_kind: { allow: 6, deny: 5, deny_with_reroute: 5, defer: 5 } });
    expect(stats.cards).toEqual([
      { card_id: 'crm-card', count: 16 },
      { card_id: 'fs-card', count: 5 },
    ]);
    // deny and deny_with_reroute of crm.contacts.delete (i % 4 === 1) and of crm.contacts.read (i % 4 === 2).
    expect(stats.refused_tools).toEqual([
      { tool: 'crm.contacts.delete', count: 5 },
      { tool: 'crm.contacts.read', count: 5 },
    ]);
    expect((await new ReadDecisionStatsUseCase(new StatCountsTable(t.db)).read(`${org}_other`, '1h', at(60_000))).decisions?.total).toBe(0);
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

    const gotFull = await t.repo.findByDecisionId(org, full.decisionId);
    expect(gotFull).toEqual(full);
    expect(gotFull!.createdAt).toBeInstanceOf(Date);
    expect(gotFull!.reviewedAt).toBeInstanceOf(Date);
    expect(gotFull!.createdAt.toISOString()).toBe(full.createdAt.toISOString());
    expect(gotFull!.reviewedAt!.toISOString()).toBe(full.reviewedAt!.toISOString());

    const gotBare = await t.repo.findByDecisionId(org, bare.decisionId);
    expect(gotBare).toEqual(bare);
    expect(gotBare!.createdAt.toISOString()).toBe('2026-03-01T23:59:59.999Z');
    // Nullable columns are SQL NULL (not JSON null / the string "null").
    const [nulls] = await t.db.query<Record<string, boolean>>(
      `SELECT rule_id IS NULL AS rule, review_id IS NULL AS review, reviewed_at IS NULL AS reviewed, target_resource IS NULL AS target
         FROM "${t.schema}"."decisions" WHERE decision_id = $1`,
      [bare.decisionId],
    );
    expect(nulls).toEqual({ rule: true, review: true, reviewed: true, target: true });
  });

  it("findByDecisionId of another org's decision, or an unknown id, is null", async () => {
    const org = newOrg('mine');
    const r = record(org);
    await saveAll([r]);
    expect(await t.repo.findByDecisionId(newOrg('other'), r.decisionId)).toBeNull();
    expect(await t.repo.findByDecisionId(org, 'dec_missing')).toBeNull();
    expect(await t.repo.findByDecisionId(org, r.decisionId)).toEqual(r);
  });

  it('a burst of 1000 records is stored in two group commits of 500, with 1000 events', async () => {
    const org = newOrg('bulk');
    const batch = Array.from({ length: 1000 }, (_, i) =>
      i % 10 === 0 ? review(org) : record(org, { kind: i % 3 ? 'allow' : 'deny', reason: i % 3 ? null : 'rule_denied' }),
    );
    const transaction = jest.spyOn(t.db, 'commit');
    try {
      await saveAll(batch);
      expect(transaction).toHaveBeenCalledTimes(2);
    } finally {
      transaction.mockRestore();
    }
    const ids = sorted(batch.map((r) => r.decisionId));
    expect(await rows(org)).toEqual(ids);
    expect(await outboxIds(org)).toEqual(batch.map((r) => r.decisionId));
    expect(await t.repo.listReviews(org, { limit: 200 })).toHaveLength(100);
  });

  it('an unreachable database rejects with DependencyUnavailableError and nudges nobody', async () => {
    const dead = openPostgresDatabase(DEAD_DATABASE_URL, t.schema, 2);
    t.others.push(dead);
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
      t.db.query<{ record_id: string | null; org_id: string | null; reason: string; payload: string }>(
        `SELECT record_id, org_id, reason, payload FROM "${t.schema}"."dead_letters" WHERE kind = $1 ORDER BY seq`,
        [kind],
      );

    it("one org's decision the store refuses (a lone surrogate) is set aside; every other org's decision of the same commit is stored", async () => {
      const before = (await letters()).length;
      const orgA = newOrg('poison_a');
      const orgB = newOrg('poison_b');
      const poison = record(orgA, { operation: 'crm.read\ud800' });
      const others = Array.from({ length: 60 }, (_, i) => record(i % 2 ? orgB : orgA));
      const all = [...others.slice(0, 30), poison, ...others.slice(30)];
      const outcomes = await Promise.allSettled(all.map((r) => t.repo.record(r)));
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
      expect((await new SqlDeadLetters(t.db).stats()).count).toBeGreaterThanOrEqual(1);

      // Later decisions are not held up by it.
      const after = record(orgB);
      await t.repo.record(after);
      expect(await t.repo.findByDecisionId(orgB, after.decisionId)).toEqual(after);
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
      await t.repo.record(drained);
      const fresh = [record(org), review(org), record(org)];
      const poison = record(org, { actor: 'agent\udc00' });
      const line = (r: DecisionRecord) => JSON.stringify(r);
      writeFileSync(join(dir, 'segment-000000000001.ndjson'), [line(drained), line(fresh[0]!), 'not json at all', line(poison)].join('\n') + '\n');
      writeFileSync(
        join(dir, 'segment-000000000002.ndjson'),
        [line(fresh[1]!), line(fresh[2]!)].join('\n') + `\n{"decisionId":"dec_torn","orgId":"${org}","ki`,
      );
      writeFileSync(join(dir, 'journal.lock'), 'gone-host:1');

      const result = await replayLegacyJournal(dir, t.repo, new SqlDeadLetters(t.db));
      expect(result).toEqual({ stored: 4, setAside: 2, complete: true });
      const ids = sorted([drained, ...fresh].map((r) => r.decisionId));
      expect(await rows(org)).toEqual(ids);
      expect(sorted(await outboxIds(org))).toEqual(ids);
      expect(await t.repo.findByDecisionId(org, fresh[1]!.decisionId)).toEqual(fresh[1]);
      expect(readdirSync(dir)).toEqual([]);
    });

    it('a missing directory is nothing to do', async () => {
      expect(await replayLegacyJournal(join(newDir(), 'absent'), t.repo, new SqlDeadLetters(t.db))).toEqual({ stored: 0, setAside: 0, complete: true });
    });
  });
});
