import { AppError, FixedClock, unavailable, type Caller } from '@igw/kernel';
import { Topics, type ApprovalEventV1, type CreateApprovalRequestDto } from '@igw/contracts';
import { approvalUseCases } from '../testing/approval-use-cases.fake';
import { TEACHING_LEASE_MS } from './approval-decision';
import { FakeRegistryTeacher } from '../testing/fake-registry-teacher';
import { InMemoryApprovalRepository } from '../testing/in-memory-approval.repository.fake';

const agent: Caller = { orgId: 'org_acme', keyId: 'key_agent', scope: 'read_only' };
const human: Caller = { orgId: 'org_acme', keyId: 'key_human', scope: 'policy_write' };
const other: Caller = { orgId: 'org_acme', keyId: 'key_other', scope: 'policy_write' };

const setup = () =>
  approvalUseCases(
    new InMemoryApprovalRepository(),
    new FixedClock(new Date('2026-03-01T10:00:00.000Z')),
    new FakeRegistryTeacher(['crm.export', 'crm.report']),
  );

const toolCall = { name: 'export_customers', arguments: { rows: 10_000 } };
const context = [{ role: 'user', content: 'send me all our customers' }];
const evaluated = (extra: Partial<CreateApprovalRequestDto> = {}): CreateApprovalRequestDto =>
  ({
    source: 'evaluate',
    intent_label: 'crm.export',
    tool_name: 'export_customers',
    summary: 'export all customers',
    fingerprint: 'fp_1',
    tool_call: toolCall,
    conversation_context: context,
    ...extra,
  }) as CreateApprovalRequestDto;
const mandatePath = (): CreateApprovalRequestDto =>
  ({ source: 'mcp_proxy', intent_card_id: 'card_1', operation: 'crm.refunds.create', summary: 'refund', fingerprint: 'fp_proxy' }) as CreateApprovalRequestDto;

describe('approval use cases: teaching from the queue (DESIGN 6.15)', () => {
  it('create keeps why and what: shown in the view and the event, the conversation only kept to teach', async () => {
    const s = setup();
    const candidates = [{ intent_label: 'crm.export', intention_id: 'int_crm.export', confidence: 0.58 }];
    const created = await s.create.execute(agent, evaluated({ reason_code: 'uncertain_match', candidates }));
    expect(created).toMatchObject({ reason_code: 'uncertain_match', candidates, tool_call: toolCall });
    expect(created).not.toHaveProperty('conversation_context');
    expect(s.repo.rows.get(created.id)!.conversationContext).toEqual(context);
    const event = s.repo.outbox[0]!.data as ApprovalEventV1;
    expect(event).toMatchObject({ reason_code: 'uncertain_match', candidates, tool_call: toolCall });
    expect(event).not.toHaveProperty('conversation_context');
    // No reason given: the intention requires approval. The mandate path has none of it.
    expect(await s.create.execute(agent, evaluated({ fingerprint: 'fp_2' }))).toMatchObject({ reason_code: 'approval_required', candidates: [] });
    expect(await s.create.execute(agent, mandatePath())).toMatchObject({ reason_code: null, candidates: [], tool_call: null });
  });

  it('approve with remember teaches the call as a positive example of the candidate, then approves', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, evaluated());
    expect(await s.approve.execute(human, id, { remember: true, reason: 'fine' })).toMatchObject({
      status: 'approved',
      intent_label: 'crm.export',
      reason: 'fine',
    });
    expect(s.registry.taught.get(id)).toEqual({
      approval_id: id,
      tool_call: toolCall,
      conversation_context: context,
      examples: [{ intention_label: 'crm.export', covered: true }],
    });
  });

  it('approve as another intention: the grant is for it; with remember also a negative example of the candidate', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, evaluated());
    const approved = await s.approve.execute(human, id, { remember: true, intent_label: 'crm.report' });
    expect(approved).toMatchObject({
      status: 'approved',
      intent_label: 'crm.report',
      candidates: [{ intent_label: 'crm.export', intention_id: 'int_crm.export', confidence: 1 }],
    });
    expect(s.registry.taught.get(id)!.examples).toEqual([
      { intention_label: 'crm.report', covered: true },
      { intention_label: 'crm.export', covered: false },
    ]);
    // Without remember the correction alone: nothing taught.
    const second = await s.create.execute(agent, evaluated({ fingerprint: 'fp_2' }));
    expect(await s.approve.execute(human, second.id, { intent_label: 'crm.report' })).toMatchObject({ intent_label: 'crm.report' });
    expect(s.registry.taught.has(second.id)).toBe(false);
  });

  it('an intent_label that is no active intention of the org is 404 intent_not_found naming it; nothing changes', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, evaluated());
    for (const remember of [false, true]) {
      await expect(s.approve.execute(human, id, { remember, intent_label: 'crm.archived' })).rejects.toMatchObject({
        kind: 'not_found',
        code: 'intent_not_found',
        extra: { details: [{ path: 'intent_label' }] },
      });
    }
    expect((await s.get.execute(human, id)).status).toBe('pending');
    expect(s.registry.calls.filter((c) => c.startsWith('teach'))).toEqual([]);
  });

  it('remember or intent_label on a request that holds no evaluated call is 400 naming the field', async () => {
    const s = setup();
    const proxy = await s.create.execute(agent, mandatePath());
    const noCall = await s.create.execute(agent, evaluated({ fingerprint: 'fp_nocall', tool_call: undefined }));
    const fieldOf = (p: Promise<unknown>) =>
      p.then(
        () => 'resolved',
        (e: AppError) => [e.code, (e.extra['details'] as { path: string }[]).map((d) => d.path)],
      );
    expect(await fieldOf(s.approve.execute(human, proxy.id, { remember: true }))).toEqual(['invalid_request', ['remember']]);
    expect(await fieldOf(s.approve.execute(human, proxy.id, { intent_label: 'crm.report' }))).toEqual(['invalid_request', ['intent_label']]);
    expect(await fieldOf(s.deny.execute(human, proxy.id, { remember: true }))).toEqual(['invalid_request', ['remember']]);
    expect(await fieldOf(s.approve.execute(human, noCall.id, { remember: true }))).toEqual(['invalid_request', ['remember']]);
    expect((await s.get.execute(human, proxy.id)).status).toBe('pending');
    // remember: false is no teaching, so the mandate path may say it.
    expect(await s.approve.execute(human, proxy.id, { remember: false })).toMatchObject({ status: 'approved' });
    expect(s.registry.calls).toEqual([]);
  });

  it('separation of duties and state come first: nothing is taught for a refused decision', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, evaluated());
    await expect(s.approve.execute(agent, id, { remember: true })).rejects.toMatchObject({ code: 'self_approval' });
    await s.deny.execute(human, id);
    await expect(s.approve.execute(human, id, { remember: true, intent_label: 'nope' })).rejects.toMatchObject({ code: 'invalid_transition' });
    await expect(s.deny.execute(other, id, { remember: true })).rejects.toMatchObject({ code: 'invalid_transition' });
    expect(s.registry.calls).toEqual([]);
  });

  it('deny with remember teaches a negative example of the candidate', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, evaluated());
    expect(await s.deny.execute(human, id, { remember: true, reason: 'never' })).toMatchObject({ status: 'denied', reason: 'never' });
    expect(s.registry.taught.get(id)!.examples).toEqual([{ intention_label: 'crm.export', covered: false }]);
  });

  it('no half-taught state: when teaching fails the decision fails with its error and the request stays pending', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, evaluated());
    s.registry.teachFailure = unavailable('policy-registry is unavailable; retry later');
    await expect(s.approve.execute(human, id, { remember: true })).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(s.deny.execute(human, id, { remember: true })).rejects.toMatchObject({ kind: 'unavailable' });
    s.registry.teachFailure = new AppError('conflict', 'example_limit', 'crm.export holds 2000 examples');
    await expect(s.approve.execute(human, id, { remember: true })).rejects.toMatchObject({ code: 'example_limit' });
    expect((await s.get.execute(human, id)).status).toBe('pending');
    expect(s.repo.outbox.map((e) => e.type)).toEqual([Topics.ApprovalRequested.name]);
    s.registry.teachFailure = null;
    expect(await s.approve.execute(human, id, { remember: true })).toMatchObject({ status: 'approved' });
  });

  it('no half-taught state: when a concurrent decision wins after teaching, what was taught is forgotten and the 409 answers', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, evaluated());
    const teach = s.registry.teach.bind(s.registry);
    s.registry.teach = async (orgId, request) => {
      const taught = await teach(orgId, request);
      // Another operator's decision lands between the check and the transition.
      await s.deny.execute(other, id, { reason: 'faster' });
      return taught;
    };
    await expect(s.approve.execute(human, id, { remember: true })).rejects.toMatchObject({ kind: 'conflict', code: 'invalid_transition' });
    expect(s.registry.calls).toEqual([`teach ${id}`, `forgetTaught ${id}`]);
    expect(s.registry.taught.size).toBe(0);
    expect(await s.get.execute(human, id)).toMatchObject({ status: 'denied', decided_by_key_id: 'key_other' });
  });

  it('when storing the decision fails after teaching, the lesson is forgotten and the request can be decided again at once', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, evaluated());
    const update = s.repo.update.bind(s.repo);
    s.repo.update = async () => {
      throw unavailable('the approvals database is unavailable; retry later');
    };
    await expect(s.approve.execute(human, id, { remember: true })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(s.registry.calls).toEqual([`teach ${id}`, `forgetTaught ${id}`]);
    s.repo.update = update;
    expect(await s.approve.execute(human, id, { remember: true })).toMatchObject({ status: 'approved' });
    expect(s.registry.taught.has(id)).toBe(true);
  });

  it('two decisions that teach never overlap: the second is 409 decision_in_progress, and the first keeps its lesson', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, evaluated());
    const teach = s.registry.teach.bind(s.registry);
    let second: Promise<unknown> | undefined;
    s.registry.teach = async (orgId, request) => {
      // A double click, or a second operator, while the first one's lesson is being stored.
      second ??= s.deny.execute(other, id, { remember: true }).catch((e: unknown) => e);
      await second;
      return teach(orgId, request);
    };
    expect(await s.approve.execute(human, id, { remember: true })).toMatchObject({ status: 'approved' });
    expect(await second).toMatchObject({ kind: 'conflict', code: 'decision_in_progress' });
    expect(s.registry.calls).toEqual([`teach ${id}`]);
    expect(s.registry.taught.get(id)!.examples).toEqual([{ intention_label: 'crm.export', covered: true }]);
  });

  it('a reservation for teaching lapses: a decider that died blocks the request for the lease only', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, evaluated());
    const now = s.clock.now();
    expect(await s.repo.reserveForTeaching('org_acme', id, 'key_gone', now, new Date(now.getTime() + TEACHING_LEASE_MS))).toBe(true);
    await expect(s.approve.execute(human, id, { remember: true })).rejects.toMatchObject({ code: 'decision_in_progress' });
    // A decision that teaches nothing needs no reservation.
    const plain = await s.create.execute(agent, evaluated({ fingerprint: 'fp_plain' }));
    await s.repo.reserveForTeaching('org_acme', plain.id, 'key_gone', now, new Date(now.getTime() + TEACHING_LEASE_MS));
    expect(await s.approve.execute(human, plain.id)).toMatchObject({ status: 'approved' });
    s.clock.advance(TEACHING_LEASE_MS);
    expect(await s.approve.execute(human, id, { remember: true })).toMatchObject({ status: 'approved' });
  });
});
