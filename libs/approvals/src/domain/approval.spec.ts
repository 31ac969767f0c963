import { AppError } from '@igw/kernel';
import { failureOf } from '@igw/testing/unit';
import { approve, asOf, consume, deny, expire, isConsumable, requestApproval, statusAt, type Approval, type NewApproval } from './approval';

const t0 = new Date('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const input = (extra: Partial<NewApproval> = {}): NewApproval => ({
  source: 'evaluate',
  intentLabel: 'crm.export',
  toolName: 'export_customers',
  summary: 'export 10k rows',
  fingerprint: 'f'.repeat(64),
  ...extra,
});
const pending = (extra: Partial<NewApproval> = {}): Approval => requestApproval('apr_1', 'org_a', 'key_agent', input(extra), t0);

const failure = (fn: () => unknown): AppError => failureOf(fn, AppError);

describe('approval', () => {
  it('starts pending, expiring after 15 minutes unless told otherwise', () => {
    expect(pending()).toEqual({
      id: 'apr_1',
      orgId: 'org_a',
      status: 'pending',
      source: 'evaluate',
      intentLabel: 'crm.export',
      intentCardId: null,
      toolName: 'export_customers',
      operation: null,
      summary: 'export 10k rows',
      requestedByKeyId: 'key_agent',
      userId: null,
      fingerprint: 'f'.repeat(64),
      createdAt: t0,
      expiresAt: at(900),
      decidedAt: null,
      decidedByKeyId: null,
      reason: null,
      consumedAt: null,
      reasonCode: 'approval_required',
      candidates: [],
      toolCall: null,
      conversationContext: null,
    });
    expect(pending({ ttlSeconds: 60 }).expiresAt).toEqual(at(60));
  });

  it('keeps the call of a legacy-path request; a mandate-path request has none of it', () => {
    const call = {
      reasonCode: 'uncertain_match' as const,
      candidates: [{ intentLabel: 'crm.export', intentionId: 'int_1', confidence: 0.61 }],
      toolCall: { name: 'export_customers', arguments: { rows: 10_000 } },
      conversationContext: [{ role: 'user', content: 'export them all' }],
    };
    expect(pending(call)).toMatchObject(call);
    expect(pending({ source: 'mcp_proxy', intentLabel: null, intentCardId: 'card_1', ...call })).toMatchObject({
      reasonCode: null,
      candidates: [],
      toolCall: null,
      conversationContext: null,
    });
  });

  it.each([
    [{ source: 'email' as never }, 'source'],
    [{ summary: '  ' }, 'summary'],
    [{ fingerprint: '' }, 'fingerprint'],
    [{ fingerprint: 'x'.repeat(129) }, 'fingerprint'],
    [{ toolName: 'x'.repeat(257) }, 'tool_name'],
    [{ ttlSeconds: 9 }, 'ttl_seconds'],
    [{ ttlSeconds: 1.5 }, 'ttl_seconds'],
    [{ ttlSeconds: 7 * 24 * 3600 + 1 }, 'ttl_seconds'],
    [{ reasonCode: 'maybe' as never }, 'reason_code'],
    [{ candidates: 'crm.export' as never }, 'candidates'],
    [{ candidates: [{ intentLabel: 'crm.export', intentionId: 'int_1', confidence: 1.5 }] }, 'candidates[0]'],
    [{ toolCall: { name: '' } }, 'tool_call'],
    [{ toolCall: { name: 'x', arguments: [] as never } }, 'tool_call.arguments'],
    [{ conversationContext: [{ role: 'user' }] as never }, 'conversation_context'],
  ])('refuses %p naming %s', (extra, path) => {
    const err = failure(() => pending(extra));
    expect(err.code).toBe('invalid_request');
    expect((err.extra['details'] as { path: string }[])[0]!.path).toBe(path);
  });

  it('approve and deny: pending → decided by another key, with time and reason', () => {
    expect(approve(pending(), 'key_human', at(5))).toMatchObject({ status: 'approved', decidedAt: at(5), decidedByKeyId: 'key_human', reason: null });
    expect(deny(pending(), 'key_human', at(5), 'not today')).toMatchObject({
      status: 'denied',
      decidedAt: at(5),
      decidedByKeyId: 'key_human',
      reason: 'not today',
    });
    expect(deny(pending(), 'key_human', at(5)).reason).toBeNull();
  });

  it('approving as another intention: the label becomes the correction, the original candidate stays listed', () => {
    const corrected = approve(pending(), 'key_human', at(5), {
      reason: 'it is a report',
      correction: { intentLabel: 'crm.report', candidateIntentionId: 'int_1' },
    });
    expect(corrected).toMatchObject({
      status: 'approved',
      reason: 'it is a report',
      intentLabel: 'crm.report',
      candidates: [{ intentLabel: 'crm.export', intentionId: 'int_1', confidence: 1 }],
    });
    const uncertain = pending({ reasonCode: 'uncertain_match', candidates: [{ intentLabel: 'crm.export', intentionId: 'int_1', confidence: 0.6 }] });
    expect(approve(uncertain, 'key_human', at(5), { correction: { intentLabel: 'crm.report', candidateIntentionId: 'int_1' } }).candidates).toEqual(
      uncertain.candidates,
    );
    // The same label is no correction.
    expect(approve(pending(), 'key_human', at(5), { correction: { intentLabel: 'crm.export', candidateIntentionId: 'int_1' } })).toMatchObject({
      intentLabel: 'crm.export',
      candidates: [],
    });
  });

  it('the key that caused the request cannot decide it (403 self_approval)', () => {
    for (const decide of [() => approve(pending(), 'key_agent', at(5)), () => deny(pending(), 'key_agent', at(5))]) {
      expect(failure(decide)).toMatchObject({ kind: 'forbidden', code: 'self_approval' });
    }
  });

  it('a decided or expired request cannot be decided again (409 invalid_transition)', () => {
    const approved = approve(pending(), 'key_human', at(5));
    const denied = deny(pending(), 'key_human', at(5));
    for (const decide of [
      () => approve(approved, 'key_other', at(6)),
      () => deny(approved, 'key_other', at(6)),
      () => approve(denied, 'key_other', at(6)),
      () => approve(pending(), 'key_human', at(900)),
      () => deny({ ...pending(), status: 'expired' }, 'key_human', at(1)),
    ]) {
      expect(failure(decide)).toMatchObject({ kind: 'conflict', code: 'invalid_transition' });
    }
  });

  it('a pending request reads as expired from its deadline on; decided ones keep their status', () => {
    const p = pending();
    expect(statusAt(p, at(899))).toBe('pending');
    expect(statusAt(p, at(900))).toBe('expired');
    expect(asOf(p, at(900)).status).toBe('expired');
    expect(asOf(p, at(899))).toBe(p);
    expect(statusAt(approve(p, 'key_human', at(1)), at(10_000))).toBe('approved');
  });

  it('expire stores expired only for an overdue pending request', () => {
    expect(expire(pending(), at(899))).toBeNull();
    expect(expire(pending(), at(900))).toMatchObject({ status: 'expired', decidedAt: null });
    expect(expire(approve(pending(), 'key_human', at(1)), at(10_000))).toBeNull();
    expect(expire({ ...pending(), status: 'expired' }, at(10_000))).toBeNull();
  });

  it('an approval lets its call through once, before its deadline', () => {
    const approved = approve(pending(), 'key_human', at(5));
    expect(isConsumable(pending(), at(6))).toBe(false);
    expect(isConsumable(approved, at(6))).toBe(true);
    expect(isConsumable(approved, at(900))).toBe(false);
    const used = consume(approved, at(6));
    expect(used.consumedAt).toEqual(at(6));
    expect(isConsumable(used, at(7))).toBe(false);
    expect(failure(() => consume(used, at(7))).code).toBe('invalid_transition');
  });
});
