import type { Mandate } from '../../domain/mandate';
import { Prisma } from './generated/client';
import { mutableColumns, storedStatus } from './prisma-mandate.repository';
import { toSigningKey } from './prisma-signing-key.repository';
import { mandateFixture } from './mandate.fixture';

const T0 = new Date('2026-03-01T10:00:00.000Z');

const mandate: Mandate = mandateFixture({ credId: 'mnd_1', orgId: 'org_1', issuedAt: T0 });

describe('mandate columns', () => {
  it('stores only revocation in the status column (expiry is derived from expires_at)', () => {
    expect(storedStatus(mandate)).toBe('active');
    expect(storedStatus({ revokedAt: T0 })).toBe('revoked');
    // Long expired, still "active" as stored.
    expect(mutableColumns({ ...mandate, expiresAt: new Date(0) }).status).toBe('active');
    expect(mutableColumns({ ...mandate, revokedAt: T0 }).status).toBe('revoked');
  });

  it('writes a null JSON field as SQL NULL, never as the JSON value null', () => {
    const cols = mutableColumns(mandate);
    expect(cols.broker).toBe(Prisma.DbNull);
    expect(cols.classificationEvidence).toBe(Prisma.DbNull);
    expect(mutableColumns({ ...mandate, broker: { kind: 'vault' } }).broker).toEqual({ kind: 'vault' });
  });

  it('never writes the identity on update; create adds it and the sealed broker handle', () => {
    expect(mutableColumns(mandate)).not.toHaveProperty('credId');
    expect(mutableColumns(mandate)).not.toHaveProperty('orgId');
  });
});

describe('toSigningKey', () => {
  const jwk = { kty: 'RSA', kid: 'kid_1', alg: 'RS256', use: 'sig', n: 'abc', e: 'AQAB' } as const;
  const expected = {
    kid: 'kid_1',
    publicJwk: jwk,
    privateKeySealed: 'sealed',
    kekId: 'kek_1',
    createdAt: T0,
    activatesAt: T0,
    retiredAt: null,
    lastExpiry: new Date(T0.getTime() + 1),
  };

  it('maps parsed driver values', () => {
    expect(
      toSigningKey({
        kid: 'kid_1',
        public_jwk: jwk,
        private_key_enc: 'sealed',
        kek_id: 'kek_1',
        created_at: T0,
        activates_at: T0,
        retired_at: null,
        last_expiry: new Date(T0.getTime() + 1),
      }),
    ).toEqual(expected);
  });

  it('also accepts jsonb and timestamptz as text', () => {
    expect(
      toSigningKey({
        kid: 'kid_1',
        public_jwk: JSON.stringify(jwk),
        private_key_enc: 'sealed',
        kek_id: 'kek_1',
        created_at: '2026-03-01T10:00:00.000Z',
        activates_at: '2026-03-01 10:00:00+00',
        retired_at: null,
        last_expiry: '2026-03-01T10:00:00.001Z',
      }),
    ).toEqual(expected);
  });
});
