import { AppError } from '@igw/kernel';
import { failureOf } from '@igw/testing/unit';
import { dispenseMandate, mandateClaims, mandateStatus, refreshMandate, revokeMandate, type DispenseRequest, type Mandate, type MandateCard } from './mandate';

const t0 = new Date('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

const card: MandateCard = {
  id: 'crm',
  allowed_scope: { operations: ['crm.contacts.*'], resources: ['crm://contacts/**'], forbidden_operations: ['crm.contacts.delete'] },
  audiences: ['crm-api'],
  max_ttl_seconds: 3600,
};
const request = (extra: Partial<DispenseRequest> = {}): DispenseRequest => ({
  actor: 'user:alice',
  promptId: 'prm_1',
  audience: 'crm-api',
  requestedScope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/42'] },
  context: { actor: 'user:alice', acr: 'mfa' },
  classificationEvidence: { classification_method: 'llm', schema_version: 1 },
  ...extra,
});
/** What the default request is granted (the card's forbidden operations kept), and its context. */
const GRANTED_SCOPE = { operations: ['crm.contacts.read'], resources: ['crm://contacts/42'], forbidden_operations: ['crm.contacts.delete'] };
const CONTEXT = { actor: 'user:alice', acr: 'mfa' };
const issue = { credId: 'mnd_1', orgId: 'org_a', kid: 'k1', now: new Date(t0.getTime() + 250) };
const dispensed = (extra: Partial<DispenseRequest> = {}, c: MandateCard = card): Mandate => dispenseMandate(c, request(extra), issue).mandate;

const failure = (fn: () => unknown): AppError => failureOf(fn, AppError);

describe('dispenseMandate', () => {
  it('creates an active mandate bound to the card, actor, prompt and audience', () => {
    const { mandate, ttlSeconds } = dispenseMandate(card, request(), issue);
    expect(ttlSeconds).toBe(300);
    expect(mandate).toEqual({
      credId: 'mnd_1',
      orgId: 'org_a',
      actor: 'user:alice',
      intentId: 'crm',
      promptId: 'prm_1',
      audience: 'crm-api',
      scope: GRANTED_SCOPE,
      context: CONTEXT,
      acr: 'mfa',
      issuedAt: t0,
      expiresAt: at(300),
      revokedAt: null,
      revokeReason: null,
      refreshCount: 0,
      lastRefreshedAt: null,
      kid: 'k1',
      broker: null,
      classificationEvidence: { classification_method: 'llm', schema_version: 1 },
    });
    expect(mandateStatus(mandate, at(299))).toBe('active');
  });

  it('clamps the ttl to the card maximum and reports the effective one', () => {
    const small = { ...card, max_ttl_seconds: 60 };
    const { mandate, ttlSeconds } = dispenseMandate(small, request({ ttlSeconds: 900 }), issue);
    expect(ttlSeconds).toBe(60);
    expect(mandate.expiresAt).toEqual(at(60));
    expect(dispenseMandate(card, request({ ttlSeconds: 99_999 }), issue).ttlSeconds).toBe(3600);
  });

  it('takes acr only from a non-empty string context.acr, and defaults context to {}', () => {
    expect(dispensed({ context: { acr: 2 } }).acr).toBeNull();
    expect(dispensed({ context: { acr: '' } }).acr).toBeNull();
    const bare = dispensed({ context: undefined, classificationEvidence: undefined });
    expect(bare.context).toEqual({});
    expect(bare.acr).toBeNull();
    expect(bare.classificationEvidence).toBeNull();
  });

  it('binds no prompt when prompt_id is left out or null (DESIGN 6.8: optional)', () => {
    expect(dispensed({ promptId: undefined }).promptId).toBeNull();
    expect(dispensed({ promptId: null }).promptId).toBeNull();
  });

  it('says a missing required text field is required', () => {
    const err = failure(() => dispensed({ actor: undefined as unknown as string }));
    expect(err.message).toBe('actor is required');
    expect(err.extra['details']).toEqual([{ path: 'actor', message: 'actor is required' }]);
  });

  it('defaults the audience when the card allows exactly one, and requires it otherwise', () => {
    expect(dispensed({ audience: undefined }).audience).toBe('crm-api');
    const two = { ...card, audiences: ['crm-api', 'crm-batch'] };
    const err = failure(() => dispensed({ audience: null }, two));
    expect(err.code).toBe('invalid_request');
    expect((err.extra['details'] as { path: string }[])[0]!.path).toBe('audience');
    expect(dispensed({ audience: 'crm-batch' }, two).audience).toBe('crm-batch');
  });

  it.each([
    [{ actor: '' }, 'actor'],
    [{ actor: 'x'.repeat(257) }, 'actor'],
    [{ promptId: ' ' }, 'prompt_id'],
    [{ promptId: 'p'.repeat(257) }, 'prompt_id'],
    [{ promptId: 7 as unknown as string }, 'prompt_id'],
    [{ audience: '' }, 'audience'],
    [{ context: [] as unknown as Record<string, unknown> }, 'context'],
    [{ classificationEvidence: 'llm' as unknown as Record<string, unknown> }, 'classification_evidence'],
    [{ ttlSeconds: 0 }, 'ttl_seconds'],
    [{ ttlSeconds: 2.5 }, 'ttl_seconds'],
    [{ requestedScope: { operations: [], resources: ['crm://contacts/1'] } }, 'requested_scope.operations'],
  ])('refuses %p with 400 naming %s', (extra, path) => {
    const err = failure(() => dispensed(extra));
    expect(err.code).toBe('invalid_request');
    expect((err.extra['details'] as { path: string }[])[0]!.path).toBe(path);
  });

  it('refuses a scope beyond the card with 403 mandate_violation and suggested_scope', () => {
    const err = failure(() => dispensed({ requestedScope: { operations: ['crm.contacts.read', 'crm.deals.read'], resources: ['crm://contacts/1'] } }));
    expect(err.kind).toBe('forbidden');
    expect(err.code).toBe('mandate_violation');
    expect(err.extra['suggested_scope']).toEqual({
      operations: ['crm.contacts.read'],
      resources: ['crm://contacts/1'],
      forbidden_operations: ['crm.contacts.delete'],
    });
    expect((err.extra['details'] as { path: string }[]).map((d) => d.path)).toEqual(['requested_scope.operations[1]']);
  });

  it('refuses an audience the card does not list with 403 mandate_violation (the scope suggestion is the whole request)', () => {
    const err = failure(() => dispensed({ audience: 'billing-api' }));
    expect(err.code).toBe('mandate_violation');
    expect((err.extra['details'] as { path: string }[]).map((d) => d.path)).toEqual(['audience']);
    expect(err.extra['suggested_scope']).toEqual({
      operations: ['crm.contacts.read'],
      resources: ['crm://contacts/42'],
      forbidden_operations: ['crm.contacts.delete'],
    });
  });

  it('lets a corrupt card fail the request rather than widen it', () => {
    expect(() => dispensed({}, { ...card, max_ttl_seconds: 0 })).toThrow(RangeError);
  });
});

describe('mandateStatus', () => {
  it('is active before exp, expired from exp on, revoked whenever revoked', () => {
    const m = dispensed();
    expect(mandateStatus(m, at(299))).toBe('active');
    expect(mandateStatus(m, at(300))).toBe('expired');
    const revoked = revokeMandate(m, at(10)).mandate;
    expect(mandateStatus(revoked, at(11))).toBe('revoked');
    expect(mandateStatus(revoked, at(1000))).toBe('revoked');
  });
});

describe('refreshMandate', () => {
  const m = dispensed();

  it('issues a new credential with the same cred_id, a later exp, the new kid and one more refresh', () => {
    const now = new Date(at(100).getTime() + 400);
    const { mandate, ttlSeconds } = refreshMandate(m, card, { now, kid: 'k2' });
    expect(ttlSeconds).toBe(300);
    expect(mandate).toEqual({ ...m, expiresAt: at(400), refreshCount: 1, lastRefreshedAt: now, kid: 'k2' });
    expect(mandate.issuedAt).toEqual(m.issuedAt);
  });

  it('clamps the ttl with the card as it is now', () => {
    const { ttlSeconds } = refreshMandate(m, { ...card, max_ttl_seconds: 120 }, { now: at(100), ttlSeconds: 3600, kid: 'k1' });
    expect(ttlSeconds).toBe(200); // the expiry never moves earlier: 300 − 100
    const later = refreshMandate(m, { ...card, max_ttl_seconds: 120 }, { now: at(250), ttlSeconds: 3600, kid: 'k1' });
    expect(later.ttlSeconds).toBe(120);
    expect(later.mandate.expiresAt).toEqual(at(370));
  });

  it('caps the total lifetime at 24 h from the first issue', () => {
    // Refresh a second before each expiry, for as long as that still moves the expiry.
    let current = m;
    while (current.expiresAt.getTime() < at(24 * 3600).getTime()) {
      const now = new Date(current.expiresAt.getTime() - 1000);
      current = refreshMandate(current, card, { now, ttlSeconds: 3600, kid: 'k1' }).mandate;
    }
    expect(current.expiresAt).toEqual(at(24 * 3600));
    expect(current.refreshCount).toBe(24);
    expect(refreshMandate(current, card, { now: at(24 * 3600 - 5), kid: 'k1' }).ttlSeconds).toBe(5);
    expect(failure(() => refreshMandate(current, card, { now: at(24 * 3600), kid: 'k1' })).code).toBe('mandate_expired');
  });

  it('409 mandate_expired once expired, 409 mandate_revoked once revoked (revoked wins)', () => {
    expect(failure(() => refreshMandate(m, card, { now: at(300), kid: 'k1' }))).toMatchObject({ kind: 'conflict', code: 'mandate_expired' });
    const revoked = revokeMandate(m, at(5)).mandate;
    expect(failure(() => refreshMandate(revoked, card, { now: at(6), kid: 'k1' }))).toMatchObject({ kind: 'conflict', code: 'mandate_revoked' });
    expect(failure(() => refreshMandate(revoked, card, { now: at(400), kid: 'k1' })).code).toBe('mandate_revoked');
  });

  it('429 cooldown within 10 s of the previous refresh, with retry_after in whole seconds', () => {
    const once = refreshMandate(m, card, { now: at(100), kid: 'k1' }).mandate;
    const err = failure(() => refreshMandate(once, card, { now: new Date(at(103).getTime() + 500), kid: 'k1' }));
    expect(err).toMatchObject({ kind: 'rate_limited', code: 'cooldown' });
    expect(err.extra['retry_after']).toBe(7);
    expect(refreshMandate(once, card, { now: at(110), kid: 'k1' }).mandate.refreshCount).toBe(2);
  });

  it('a first refresh right after dispense is allowed (the cooldown is between refreshes)', () => {
    expect(refreshMandate(m, card, { now: at(1), kid: 'k1' }).mandate.refreshCount).toBe(1);
  });

  it('403 scope_outside_intent when the card no longer allows the scope or the audience', () => {
    const narrower = { ...card, allowed_scope: { ...card.allowed_scope, operations: ['crm.contacts.search'] } };
    expect(failure(() => refreshMandate(m, narrower, { now: at(10), kid: 'k1' }))).toMatchObject({ kind: 'forbidden', code: 'scope_outside_intent' });
    const otherAudience = { ...card, audiences: ['crm-batch'] };
    expect(failure(() => refreshMandate(m, otherAudience, { now: at(10), kid: 'k1' })).code).toBe('scope_outside_intent');
  });

  it('carries the forbidden operations the card gained since dispense', () => {
    const stricter = { ...card, allowed_scope: { ...card.allowed_scope, forbidden_operations: ['crm.contacts.delete', 'crm.contacts.export'] } };
    expect(refreshMandate(m, stricter, { now: at(10), kid: 'k1' }).mandate.scope.forbidden_operations).toEqual(['crm.contacts.delete', 'crm.contacts.export']);
  });

  it('checks the request before the state: a bad ttl is a 400 even on an expired mandate', () => {
    expect(failure(() => refreshMandate(m, card, { now: at(1000), ttlSeconds: -1, kid: 'k1' })).code).toBe('invalid_request');
  });

  it('refuses another card than the mandate one', () => {
    expect(() => refreshMandate(m, { ...card, id: 'other' }, { now: at(1), kid: 'k1' })).toThrow(RangeError);
  });
});

describe('revokeMandate', () => {
  const m = dispensed();

  it('revokes with time and reason', () => {
    expect(revokeMandate(m, at(5), 'leaked')).toEqual({ mandate: { ...m, revokedAt: at(5), revokeReason: 'leaked' }, changed: true });
    expect(revokeMandate(m, at(5)).mandate.revokeReason).toBeNull();
  });

  it('is idempotent: a second revoke changes nothing', () => {
    const first = revokeMandate(m, at(5), 'leaked').mandate;
    expect(revokeMandate(first, at(9), 'again')).toEqual({ mandate: first, changed: false });
  });

  it('revokes an expired mandate too', () => {
    const { mandate, changed } = revokeMandate(m, at(1000));
    expect(changed).toBe(true);
    expect(mandateStatus(mandate, at(1000))).toBe('revoked');
  });

  it('refuses a reason that is too long or not a string', () => {
    expect(failure(() => revokeMandate(m, at(5), 'x'.repeat(1001))).code).toBe('invalid_request');
    expect(failure(() => revokeMandate(m, at(5), 7 as unknown as string)).code).toBe('invalid_request');
  });
});

describe('mandateClaims', () => {
  it('maps the record to the DESIGN 6.8 claims in whole seconds', () => {
    const m = dispensed();
    const iat = Math.floor(t0.getTime() / 1000);
    expect(mandateClaims(m, 'https://gateway.example')).toEqual({
      iss: 'https://gateway.example',
      sub: 'user:alice',
      aud: 'crm-api',
      org: 'org_a',
      intent_id: 'crm',
      prompt_id: 'prm_1',
      scope: GRANTED_SCOPE,
      ctx: CONTEXT,
      acr: 'mfa',
      iat,
      nbf: iat,
      exp: iat + 300,
      jti: 'mnd_1',
    });
  });

  it('leaves acr out when unknown', () => {
    expect(mandateClaims(dispensed({ context: {} }), 'igw')).not.toHaveProperty('acr');
  });

  it('leaves prompt_id out (not null) when the mandate is bound to no prompt, also after a refresh', () => {
    const m = dispensed({ promptId: undefined });
    expect(mandateClaims(m, 'igw')).not.toHaveProperty('prompt_id');
    const refreshed = refreshMandate(m, card, { now: at(100), kid: 'k2' }).mandate;
    expect(refreshed.promptId).toBeNull();
    expect(mandateClaims(refreshed, 'igw')).not.toHaveProperty('prompt_id');
  });

  it('a refreshed credential is issued at the refresh', () => {
    const refreshed = refreshMandate(dispensed(), card, { now: new Date(at(100).getTime() + 900), kid: 'k2' }).mandate;
    const claims = mandateClaims(refreshed, 'igw');
    expect(claims.iat).toBe(Math.floor(at(100).getTime() / 1000));
    expect(claims.nbf).toBe(claims.iat);
    expect(claims.exp).toBe(claims.iat + 300);
    expect(claims.jti).toBe('mnd_1');
  });

  it('copies the scope lists, so signing never shares arrays with the record', () => {
    const m = dispensed();
    const claims = mandateClaims(m, 'igw');
    claims.scope.operations.push('x');
    expect(m.scope.operations).toEqual(['crm.contacts.read']);
  });

  it('refuses an empty issuer', () => {
    expect(() => mandateClaims(dispensed(), '')).toThrow(RangeError);
  });
});
