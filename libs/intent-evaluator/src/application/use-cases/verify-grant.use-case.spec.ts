import { createHash } from 'node:crypto';
import { AppError } from '@igw/kernel';
import { invalidGrant, type GrantVerification } from '../../domain/grants/grant';
import type { GrantVerifier } from '../grants/grant.port';
import { VerifyGrantUseCase } from './verify-grant.use-case';

const caller = { orgId: 'org_1', keyId: 'key_1', scope: 'read_only' as const };
/** What a client computes to check a grant's binding itself: SHA-256 hex of the canonical tool call. */
const hashOf = (canonical: string) => createHash('sha256').update(canonical).digest('hex');
const BOUND = hashOf('{"args":{"amount":500,"charge":"ch_42"},"tool":"stripe.create_refund","v":1}');

/** Answers a fixed verdict and records what it was asked. */
class FakeVerifier implements GrantVerifier {
  calls: [string, string][] = [];
  constructor(public verdict: GrantVerification) {}
  async verify(token: string, orgId: string): Promise<GrantVerification> {
    this.calls.push([token, orgId]);
    return this.verdict;
  }
}

const grantFor = (call: string): GrantVerification => ({
  valid: true,
  grant: {
    dataElements: ['stripe:charges.amount'],
    intentLabel: 'billing.refund',
    intentEventId: 'iev_1',
    userId: null,
    expiresAt: new Date('2026-03-01T10:15:00Z'),
    call,
  },
});

describe('VerifyGrantUseCase', () => {
  let verifier: FakeVerifier;
  let useCase: VerifyGrantUseCase;
  beforeEach(() => {
    verifier = new FakeVerifier(grantFor(BOUND));
    useCase = new VerifyGrantUseCase(verifier);
  });

  it('without tool_call: the grant as verified for the caller org (the binding is not checked)', async () => {
    expect(await useCase.execute(caller, { token: 't' })).toEqual({
      valid: true,
      grant: {
        data_elements: ['stripe:charges.amount'],
        intent_label: 'billing.refund',
        intent_event_id: 'iev_1',
        user_id: null,
        expires_at: '2026-03-01T10:15:00.000Z',
      },
    });
    expect(verifier.calls).toEqual([['t', 'org_1']]);
  });

  it('with the call it was issued for: valid, whatever the argument key order', async () => {
    const res = await useCase.execute(caller, { token: 't', tool_call: { name: 'stripe.create_refund', arguments: { charge: 'ch_42', amount: 500 } } });
    expect(res.valid).toBe(true);
  });

  it.each([
    ['another tool name', { name: 'stripe.create_charge', arguments: { charge: 'ch_42', amount: 500 } }],
    ['other arguments', { name: 'stripe.create_refund', arguments: { charge: 'ch_42', amount: 501 } }],
    ['no arguments', { name: 'stripe.create_refund' }],
  ])('with %s: other_call', async (_what, tool_call) => {
    expect(await useCase.execute(caller, { token: 't', tool_call })).toEqual({ valid: false, reason: 'other_call' });
  });

  it('an invalid grant keeps its reason whatever call it is presented for', async () => {
    verifier.verdict = invalidGrant('expired');
    expect(await useCase.execute(caller, { token: 't', tool_call: { name: 'x' } })).toEqual({ valid: false, reason: 'expired' });
  });

  it('absent and empty arguments are the same call', async () => {
    verifier.verdict = grantFor(hashOf('{"args":{},"tool":"crm.ping","v":1}'));
    expect((await useCase.execute(caller, { token: 't', tool_call: { name: 'crm.ping' } })).valid).toBe(true);
    expect((await useCase.execute(caller, { token: 't', tool_call: { name: 'crm.ping', arguments: {} } })).valid).toBe(true);
  });

  it('arguments nested too deep are a 400 naming tool_call.arguments, before the token is looked at', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = { d: deep };
    const err = await useCase.execute(caller, { token: 't', tool_call: { name: 'x', arguments: deep as Record<string, unknown> } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).extra['details']).toEqual([{ path: 'tool_call.arguments', message: expect.any(String) }]);
    expect(verifier.calls).toEqual([]);
  });
});
