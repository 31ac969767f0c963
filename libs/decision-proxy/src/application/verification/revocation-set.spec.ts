import { FixedClock } from '@igw/kernel';
import { InMemoryRevocationSet } from './revocation-set';

/** A set on a clock at 2026-01-01T00:00Z, with the default retention margin unless given. */
function fresh(retentionMs?: number) {
  const clock = new FixedClock(new Date('2026-01-01T00:00:00Z'));
  return { clock, set: retentionMs === undefined ? new InMemoryRevocationSet(clock) : new InMemoryRevocationSet(clock, retentionMs) };
}

describe('InMemoryRevocationSet', () => {
  it('answers revoked jtis and nothing else', () => {
    const { set } = fresh();
    expect(set.isRevoked('cred_1')).toBe(false);
    set.revoke('cred_1');
    set.revoke('cred_1');
    expect(set.isRevoked('cred_1')).toBe(true);
    expect(set.isRevoked('cred_2')).toBe(false);
    expect(set.size).toBe(1);
  });

  it('drops an entry once its mandate expired (plus the retention margin), keeps entries without expiry', () => {
    const { clock, set } = fresh(60_000);
    set.revoke('short', new Date('2026-01-01T00:05:00Z'));
    set.revoke('forever');
    clock.advance(5 * 60_000 + 59_000);
    expect(set.isRevoked('short')).toBe(true);
    clock.advance(2_000);
    expect(set.isRevoked('short')).toBe(false);
    expect(set.isRevoked('forever')).toBe(true);
    expect(set.size).toBe(1);
  });

  it('a later expiry for the same jti extends the entry (a refresh keeps the cred_id)', () => {
    const { clock, set } = fresh(0);
    set.revoke('c', new Date('2026-01-01T00:01:00Z'));
    set.revoke('c', new Date('2026-01-01T01:00:00Z'));
    clock.advance(10 * 60_000);
    expect(set.isRevoked('c')).toBe(true);
  });
});
