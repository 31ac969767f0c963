import { FixedClock, type Caller } from '@igw/kernel';
import { walkCursorPages } from '@igw/testing/unit';
import { prismaSpecWorld, testSchemaName, readOutbox } from '@igw/persistence/testing';
import { Topics, type ApprovalDto, type ApprovalEventV1, type CreateApprovalRequestDto } from '@igw/contracts';
import { approvalUseCases } from '../../application/testing/approval-use-cases.fake';
import { requestApproval } from '../../domain/approval';
import { APPROVALS_MIGRATIONS } from '../../approvals.module';
import { createApprovalsPrisma } from './approvals-prisma.client';
import { PrismaApprovalRepository } from './prisma-approval.repository';

const schema = testSchemaName('approvals');

describe('PrismaApprovalRepository (PostgreSQL)', () => {
  const clock = new FixedClock(new Date('2026-03-01T10:00:00.000Z'));
  const w = prismaSpecWorld(schema, APPROVALS_MIGRATIONS, 8, createApprovalsPrisma, (prisma, notifier) =>
    approvalUseCases(new PrismaApprovalRepository(prisma, schema, notifier), clock),
  );

  const agent = (orgId: string): Caller => ({ orgId, keyId: 'key_agent', scope: 'read_only' });
  const human = (orgId: string, keyId = 'key_human'): Caller => ({ orgId, keyId, scope: 'policy_write' });
  const request = (extra: Partial<CreateApprovalRequestDto> = {}) =>
    ({
      source: 'mcp_proxy',
      intent_card_id: 'crm-assistant',
      operation: 'crm.export',
      summary: 'export customers',
      fingerprint: 'fp',
      ...extra,
    }) as CreateApprovalRequestDto;
  const outbox = (orgId: string) => readOutbox<ApprovalEventV1>(w.db, orgId);
  const settle = <T>(ps: Promise<T>[]) => Promise.allSettled(ps);

  it('create then approve: the row and its outbox rows commit together, and the relay is nudged', async () => {
    const org = 'org_flow';
    const before = w.notifier.nudges;
    const created = await w.create.execute(agent(org), request({ user_id: 'u_1', ttl_seconds: 120 }));
    expect(await w.get.execute(human(org), created.id)).toEqual(created);
    clock.advance(1000);
    const approved = await w.approve.execute(human(org), created.id);
    expect(approved).toMatchObject({
      status: 'approved',
      decided_by_key_id: 'key_human',
      decided_at: '2026-03-01T10:00:01.000Z',
      user_id: 'u_1',
      operation: 'crm.export',
    });

    const rows = await outbox(org);
    expect(rows.map((r) => [r.topic, r.envelope.data.status])).toEqual([
      [Topics.ApprovalRequested.name, 'pending'],
      [Topics.ApprovalApproved.name, 'approved'],
    ]);
    const { org_id: _org, ...payload } = approved;
    expect(rows[1]!.envelope).toMatchObject({ type: Topics.ApprovalApproved.name, org_id: org, schema_version: 1, data: payload });
    expect(w.notifier.nudges - before).toBe(2);
  });

  it("stores why and what a legacy-path call waits for, and an operator's correction of the match", async () => {
    const org = 'org_teach';
    const candidates = [
      { intent_label: 'crm.export', intention_id: 'int_crm.export', confidence: 0.61 },
      { intent_label: 'crm.report', intention_id: 'int_crm.report', confidence: 0.52 },
    ];
    const tool_call = { name: 'export_customers', arguments: { rows: 10, nested: { a: [1, 'b'] } } };
    const created = await w.create.execute(
      agent(org),
      request({
        source: 'evaluate',
        intent_card_id: undefined,
        operation: undefined,
        intent_label: 'crm.export',
        reason_code: 'uncertain_match',
        candidates,
        tool_call,
        conversation_context: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(await w.get.execute(human(org), created.id)).toMatchObject({ reason_code: 'uncertain_match', candidates, tool_call });
    const [row] = await w.db.query<{ candidates: unknown; conversation_context: unknown }>(
      `SELECT "candidates", "conversation_context" FROM "${schema}"."approval_requests" WHERE "id" = $1`,
      [created.id],
    );
    expect(row).toEqual({ candidates, conversation_context: [{ role: 'user', content: 'hi' }] });
    // The registry knows both labels; the correction is stored with the decision.
    w.registry.labels.push('crm.export', 'crm.report');
    expect(await w.approve.execute(human(org), created.id, { intent_label: 'crm.report' })).toMatchObject({ intent_label: 'crm.report', candidates });
    expect(await w.get.execute(human(org), created.id)).toMatchObject({ status: 'approved', intent_label: 'crm.report', candidates });
    // A mandate-path request: SQL NULLs and [].
    const proxy = await w.create.execute(agent(org), request({ fingerprint: 'fp_proxy' }));
    const [nulls] = await w.db.query<Record<string, unknown>>(
      `SELECT "reason_code", "candidates", "tool_call", "conversation_context" FROM "${schema}"."approval_requests" WHERE "id" = $1`,
      [proxy.id],
    );
    expect(nulls).toEqual({ reason_code: null, candidates: [], tool_call: null, conversation_context: null });
  });

  it('reserving for teaching: of concurrent reservations one wins; released, lapsed or decided it is free again', async () => {
    const org = 'org_reserve';
    const repo = w.repo;
    const { id } = await w.create.execute(agent(org), request({ fingerprint: 'fp_reserve' }));
    const now = clock.now();
    const until = new Date(now.getTime() + 60_000);
    const won = await Promise.all(['k1', 'k2', 'k3', 'k4', 'k5'].map((k) => repo.reserveForTeaching(org, id, k, now, until)));
    expect(won.filter(Boolean)).toHaveLength(1);
    const winner = `k${won.indexOf(true) + 1}`;
    expect(await repo.reserveForTeaching('org_other', id, 'k9', now, until)).toBe(false);
    await repo.releaseTeaching(org, id, 'k9');
    expect(await repo.reserveForTeaching(org, id, 'k9', now, until)).toBe(false);
    await repo.releaseTeaching(org, id, winner);
    expect(await repo.reserveForTeaching(org, id, 'k9', now, until)).toBe(true);
    expect(await repo.reserveForTeaching(org, id, 'k8', until, new Date(until.getTime() + 60_000))).toBe(true);
    await w.deny.execute(human(org), id);
    expect(await repo.reserveForTeaching(org, id, 'k7', until, new Date(until.getTime() + 60_000))).toBe(false);
  });

  it('writes nothing when the transaction fails: no row without its event, no change without its event', async () => {
    const org = 'org_atomic';
    const approval = requestApproval('apr_atomic', org, 'key_agent', { source: 'evaluate', summary: 's', fingerprint: 'fp' }, clock.now());
    const boom = () => {
      throw new Error('boom');
    };
    await expect(w.repo.create(approval, boom)).rejects.toThrow('boom');
    expect(await w.repo.findById(org, 'apr_atomic')).toBeNull();

    const created = await w.create.execute(agent(org), request());
    await expect(w.repo.update(org, created.id, (a) => ({ ...a, status: 'approved' }), boom)).rejects.toThrow('boom');
    expect((await w.repo.findById(org, created.id))!.status).toBe('pending');
    expect((await outbox(org)).map((r) => r.topic)).toEqual([Topics.ApprovalRequested.name]);
  });

  it('concurrent requests for one waiting call store one row and one event', async () => {
    const org = 'org_dedupe';
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => w.create.execute(agent(org), request({ summary: `try ${i}`, fingerprint: 'fp_same' }))),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect((await w.list.execute(human(org), {})).data).toHaveLength(1);
    expect((await outbox(org)).map((r) => r.topic)).toEqual([Topics.ApprovalRequested.name]);
  });

  it("never reads or changes another org's request (404)", async () => {
    const mine = await w.create.execute(agent('org_a'), request());
    expect(await w.repo.findById('org_b', mine.id)).toBeNull();
    await expect(w.get.execute(human('org_b'), mine.id)).rejects.toMatchObject({ kind: 'not_found', code: 'not_found' });
    await expect(w.approve.execute(human('org_b'), mine.id)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(w.deny.execute(human('org_b'), mine.id)).rejects.toMatchObject({ kind: 'not_found' });
    expect((await w.list.execute(human('org_b'), {})).data).toEqual([]);
    await w.approve.execute(human('org_a'), mine.id);
    expect(await w.consume.execute(agent('org_b'), 'fp')).toBeNull();
    expect((await w.get.execute(human('org_a'), mine.id)).status).toBe('approved');
  });

  it('self-approval is refused and writes nothing', async () => {
    const org = 'org_self';
    const created = await w.create.execute(agent(org), request());
    await expect(w.approve.execute({ ...agent(org), scope: 'admin' }, created.id)).rejects.toMatchObject({ code: 'self_approval' });
    expect((await w.repo.findById(org, created.id))!.status).toBe('pending');
    expect(await outbox(org)).toHaveLength(1);
  });

  it('five concurrent approvals by different keys: exactly one wins, the others get 409 invalid_transition', async () => {
    const org = 'org_race';
    // Three rounds: a lost update would show in at least one of them.
    for (let round = 0; round < 3; round++) {
      const created = await w.create.execute(agent(org), request());
      const results = await settle(Array.from({ length: 5 }, (_, i) => w.approve.execute(human(org, `key_h${i}`), created.id)));
      const won = results.filter((r): r is PromiseFulfilledResult<ApprovalDto> => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost.map((r) => (r.reason as { code: string }).code)).toEqual(Array(4).fill('invalid_transition'));
      expect((await w.repo.findById(org, created.id))!.decidedByKeyId).toBe(won[0]!.value.decided_by_key_id);
    }
    const topics = (await outbox(org)).map((r) => r.topic);
    expect(topics.filter((t) => t === Topics.ApprovalApproved.name)).toHaveLength(3);
  });

  it('approve and deny racing: one decision stands', async () => {
    const org = 'org_race2';
    const created = await w.create.execute(agent(org), request());
    const results = await settle([w.approve.execute(human(org, 'key_a'), created.id), w.deny.execute(human(org, 'key_b'), created.id, { reason: 'no' })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await outbox(org)).length).toBe(2);
  });

  it('concurrent consumes of one approval: exactly one gets it; the next approval of the same call is used next', async () => {
    const org = 'org_consume';
    const first = await w.create.execute(agent(org), request({ fingerprint: 'fp_call' }));
    expect(await w.consume.execute(agent(org), 'fp_call')).toBeNull();
    await w.approve.execute(human(org), first.id);
    clock.advance(1);
    // The call asked again while the first approval waited to be used: a second request.
    const second = await w.create.execute(agent(org), request({ fingerprint: 'fp_call' }));
    expect(second.id).not.toBe(first.id);

    const results = await Promise.all(Array.from({ length: 6 }, () => w.consume.execute(agent(org), 'fp_call')));
    const got = results.filter((r) => r !== null);
    expect(got.map((r) => r!.id)).toEqual([first.id]);
    const [row] = await w.db.query<{ consumed_at: Date | null }>(`SELECT consumed_at FROM "${schema}"."approval_requests" WHERE id = $1`, [first.id]);
    expect(row!.consumed_at).toEqual(clock.now());

    await w.approve.execute(human(org), second.id);
    expect((await w.consume.execute(agent(org), 'fp_call'))!.id).toBe(second.id);
    expect(await w.consume.execute(agent(org), 'fp_call')).toBeNull();
    // Using an approval is not an event.
    expect((await outbox(org)).map((r) => r.topic)).toEqual([
      Topics.ApprovalRequested.name,
      Topics.ApprovalApproved.name,
      Topics.ApprovalRequested.name,
      Topics.ApprovalApproved.name,
    ]);
  });

  it("the backlog for the overview: pending requests of the org only, not past their deadline, and the oldest one's age", async () => {
    const org = 'org_backlog';
    const at = () => clock.now();
    expect((await w.stats.read(org, '1h', at())).approvals).toEqual({ pending: 0, oldest_pending_age_seconds: null });
    const oldest = await w.create.execute(agent(org), request({ fingerprint: 'fp_b1', ttl_seconds: 600 }));
    clock.advance(5_000);
    await w.create.execute(agent(org), request({ fingerprint: 'fp_b2', ttl_seconds: 600 }));
    await w.create.execute(agent(org), request({ fingerprint: 'fp_b3', ttl_seconds: 10 }));
    const decided = await w.create.execute(agent(org), request({ fingerprint: 'fp_b4', ttl_seconds: 600 }));
    await w.deny.execute(human(org), decided.id);
    await w.create.execute(agent('org_backlog_other'), request({ fingerprint: 'fp_b5', ttl_seconds: 600 }));
    clock.advance(15_000);
    // fp_b3 is past its deadline (expired as of now, swept or not), fp_b4 denied, fp_b5 another org's.
    expect((await w.stats.read(org, '7d', at())).approvals).toEqual({ pending: 2, oldest_pending_age_seconds: 20 });
    await w.approve.execute(human(org), oldest.id);
    expect((await w.stats.read(org, '1h', at())).approvals).toEqual({ pending: 1, oldest_pending_age_seconds: 15 });
    // Swept now, so the expiry spec below counts its own requests only.
    expect(await w.expire.execute()).toBe(1);
  });

  it('an approval past its deadline is not used', async () => {
    const org = 'org_consume_late';
    const created = await w.create.execute(agent(org), request({ fingerprint: 'fp_late', ttl_seconds: 30 }));
    await w.approve.execute(human(org), created.id);
    clock.advance(30_000);
    expect(await w.consume.execute(agent(org), 'fp_late')).toBeNull();
    expect((await w.get.execute(human(org), created.id)).status).toBe('approved');
  });

  it('expiry: overdue requests read as expired at once; concurrent sweeps store it and emit approval.expired once per request', async () => {
    const org = 'org_expiry';
    const due = await w.create.execute(agent(org), request({ ttl_seconds: 10, fingerprint: 'fp_due' }));
    const due2 = await w.create.execute(agent(org), request({ ttl_seconds: 10, fingerprint: 'fp_due2' }));
    const later = await w.create.execute(agent(org), request({ ttl_seconds: 600, fingerprint: 'fp_later' }));
    const decided = await w.create.execute(agent(org), request({ ttl_seconds: 10, fingerprint: 'fp_decided' }));
    await w.deny.execute(human(org), decided.id);
    clock.advance(10_000);

    expect((await w.get.execute(human(org), due.id)).status).toBe('expired');
    expect((await w.list.execute(human(org), { status: 'expired' })).data.map((a) => a.id).sort()).toEqual([due.id, due2.id].sort());
    expect((await w.list.execute(human(org), { status: 'pending' })).data.map((a) => a.id)).toEqual([later.id]);
    await expect(w.approve.execute(human(org), due.id)).rejects.toMatchObject({ code: 'invalid_transition' });

    const counts = await Promise.all([w.expire.execute(1), w.expire.execute(1), w.expire.execute()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await w.expire.execute()).toBe(0);
    const stored = await w.db.query<{ id: string; status: string }>(`SELECT id, status FROM "${schema}"."approval_requests" WHERE org_id = $1 ORDER BY id`, [
      org,
    ]);
    expect(Object.fromEntries(stored.map((r) => [r.id, r.status]))).toEqual({
      [due.id]: 'expired',
      [due2.id]: 'expired',
      [later.id]: 'pending',
      [decided.id]: 'denied',
    });
    const expiredEvents = (await outbox(org)).filter((r) => r.topic === Topics.ApprovalExpired.name);
    expect(expiredEvents.map((r) => r.envelope.data.id).sort()).toEqual([due.id, due2.id].sort());
    expect(expiredEvents[0]!.envelope.data).toMatchObject({ status: 'expired', decided_at: null });
    expect((await w.list.execute(human(org), { status: 'expired' })).data).toHaveLength(2);
  });

  it('pages newest first with a stable cursor, also when rows arrive between pages and with a status filter', async () => {
    const org = 'org_pages';
    const ids: string[] = [];
    // Three share one timestamp: the id breaks the tie.
    for (let i = 0; i < 6; i++) {
      ids.push((await w.create.execute(agent(org), request({ fingerprint: `fp_${i}` }))).id);
      if (i % 3 === 2) clock.advance(1000);
    }
    const { items, pages } = await walkCursorPages(
      (cursor) => w.list.execute(human(org), { limit: '2', cursor }),
      async () => {
        clock.advance(1000);
        await w.create.execute(agent(org), request({ fingerprint: 'fp_late' }));
      },
    );
    expect(items.map((a) => a.id)).toEqual([...ids].reverse());
    expect(pages).toBe(3);

    await w.approve.execute(human(org), ids[1]!);
    await w.approve.execute(human(org), ids[4]!);
    const approved = await w.list.execute(human(org), { status: 'approved', limit: '1' });
    expect(approved.data.map((a) => a.id)).toEqual([ids[4]]);
    expect((await w.list.execute(human(org), { status: 'approved', cursor: approved.next_cursor! })).data.map((a) => a.id)).toEqual([ids[1]]);
  });
});
