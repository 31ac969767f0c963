import { checkGrantCall, checkGrantClaims, grantClaims, invalidGrant, isCallHash, isGrantType, type GrantClaims, type GrantRequest } from './grant';

const CALL = 'c0ffee'.repeat(10) + 'abcd';

const issuedAt = new Date('2026-03-01T10:00:00.750Z');
const request = (over: Partial<GrantRequest> = {}): GrantRequest => ({
  orgId: 'org_1',
  userId: 'u1',
  intentLabel: 'crm.lookup',
  dataElements: ['crm:customers.email'],
  intentEventId: 'iev_1',
  call: CALL,
  ttlMinutes: 15,
  issuedAt,
  ...over,
});
const at = (iso: string) => new Date(iso);

describe('grant claims', () => {
  it('carry the evaluation, with exp = iat + ttl_minutes', () => {
    expect(grantClaims(request(), 'grt_1')).toEqual({
      iss: 'intent-gateway',
      sub: 'u1',
      org: 'org_1',
      intent: 'crm.lookup',
      data_elements: ['crm:customers.email'],
      evt: 'iev_1',
      call: CALL,
      iat: 1772359200,
      exp: 1772359200 + 15 * 60,
      jti: 'grt_1',
    });
  });

  it('name an anonymous subject when there is no user', () => {
    expect(grantClaims(request({ userId: null }), 'grt_1').sub).toBe('anonymous');
  });

  it('refuse a ttl that is not a positive integer, or an invalid date', () => {
    for (const ttlMinutes of [0, -1, 1.5, NaN]) expect(() => grantClaims(request({ ttlMinutes }), 'j')).toThrow(RangeError);
    expect(() => grantClaims(request({ issuedAt: new Date('x') }), 'j')).toThrow(RangeError);
  });

  it('refuse a call that is not a lowercase hex SHA-256', () => {
    for (const call of ['', 'abc', CALL.toUpperCase(), `${CALL}0`, Buffer.from(CALL, 'hex').toString('base64url')]) {
      expect(isCallHash(call)).toBe(false);
      expect(() => grantClaims(request({ call }), 'j')).toThrow(RangeError);
    }
    expect(isCallHash(CALL)).toBe(true);
  });

  it.each([
    ['grant+jwt', true],
    ['GRANT+JWT', true],
    ['application/grant+jwt', true],
    ['mandate+jwt', false],
    ['JWT', false],
    ['', false],
    [undefined, false],
    [7, false],
  ])('typ %p is a grant: %p', (typ, expected) => expect(isGrantType(typ)).toBe(expected));
});

describe('checking verified claims', () => {
  const claims = grantClaims(request(), 'grt_1');

  it('answer the grant while it is valid', () => {
    expect(checkGrantClaims(claims, 'org_1', at('2026-03-01T10:14:59.999Z'))).toEqual({
      valid: true,
      grant: {
        dataElements: ['crm:customers.email'],
        intentLabel: 'crm.lookup',
        intentEventId: 'iev_1',
        userId: 'u1',
        expiresAt: at('2026-03-01T10:15:00.000Z'),
        call: CALL,
      },
    });
  });

  it('map the anonymous subject back to no user', () => {
    const anon = grantClaims(request({ userId: null }), 'grt_1');
    expect(checkGrantClaims(anon, 'org_1', issuedAt)).toMatchObject({ valid: true, grant: { userId: null } });
  });

  it('expire at exp', () => {
    expect(checkGrantClaims(claims, 'org_1', at('2026-03-01T10:15:00.000Z'))).toEqual({ valid: false, reason: 'expired' });
  });

  it('belong to one org, and say so before saying expired', () => {
    expect(checkGrantClaims(claims, 'org_2', issuedAt)).toEqual({ valid: false, reason: 'other_org' });
    expect(checkGrantClaims(claims, 'org_2', at('2027-01-01T00:00:00Z'))).toEqual({ valid: false, reason: 'other_org' });
  });

  const without = (key: keyof GrantClaims) => {
    const c: Partial<GrantClaims> = { ...claims };
    delete c[key];
    return c;
  };
  it.each<[string, unknown]>([
    ['a non-object', 'x'],
    ['null', null],
    ['an array', [claims]],
    ...(Object.keys(claims) as (keyof GrantClaims)[]).map((k): [string, unknown] => [`no ${k}`, without(k)]),
    ['another issuer', { ...claims, iss: 'someone' }],
    ['an empty subject', { ...claims, sub: '' }],
    ['data_elements not strings', { ...claims, data_elements: [1] }],
    ['data_elements not an array', { ...claims, data_elements: 'crm:x' }],
    ['a fractional exp', { ...claims, exp: claims.exp + 0.5 }],
    ['a string exp', { ...claims, exp: String(claims.exp) }],
    ['exp not after iat', { ...claims, exp: claims.iat }],
    ['a call that is no hex SHA-256', { ...claims, call: 'hubspot.get_contact' }],
    ['a call in upper case', { ...claims, call: CALL.toUpperCase() }],
  ])('are malformed with %s', (_what, payload) => {
    expect(checkGrantClaims(payload, 'org_1', issuedAt)).toEqual({ valid: false, reason: 'malformed' });
  });
});

describe('the call binding', () => {
  const valid = checkGrantClaims(grantClaims(request(), 'grt_1'), 'org_1', issuedAt);

  it('keeps a grant presented for the call it was issued for', () => {
    expect(valid.valid).toBe(true);
    expect(checkGrantCall(valid, CALL)).toBe(valid);
  });

  it('answers other_call for any other call', () => {
    expect(checkGrantCall(valid, 'f'.repeat(64))).toEqual({ valid: false, reason: 'other_call' });
    expect(checkGrantCall(valid, '')).toEqual({ valid: false, reason: 'other_call' });
  });

  it('leaves an invalid grant its own reason', () => {
    for (const reason of ['expired', 'other_org', 'bad_signature', 'malformed'] as const) {
      expect(checkGrantCall(invalidGrant(reason), 'f'.repeat(64))).toEqual({ valid: false, reason });
    }
  });
});
