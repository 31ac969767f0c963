import { keysetPageSql } from './keyset-page';

describe('keysetPageSql', () => {
  it('numbers the asked filters, then the cursor, then limit + 1', () => {
    const [sql, params] = keysetPageSql({
      select: '"id"',
      from: 't',
      equal: [
        ['org_id', 'org_1'],
        ['status', undefined],
        ['kind', 'a'],
      ],
      also: '"x" IS NOT NULL',
      key: 'k',
      after: { createdAt: new Date('2026-01-01T00:00:00Z'), id: 'k_9' },
      limit: 10,
    });
    expect(sql).toBe(
      'SELECT "id" FROM t WHERE "org_id" = $1 AND "kind" = $2 AND "x" IS NOT NULL AND ("created_at", "k") < ($3::timestamptz, $4) ORDER BY "created_at" DESC, "k" DESC LIMIT $5',
    );
    expect(params).toEqual(['org_1', 'a', '2026-01-01T00:00:00.000Z', 'k_9', 11]);
  });

  it('without a cursor the first page is read', () => {
    expect(keysetPageSql({ select: '*', from: 't', equal: [['org_id', 'o']], after: null, limit: 1 })).toEqual([
      'SELECT * FROM t WHERE "org_id" = $1 ORDER BY "created_at" DESC, "id" DESC LIMIT $2',
      ['o', 2],
    ]);
  });

  it('bounds a column by the asked ranges, leaving out those not asked for', () => {
    const since = new Date('2026-01-01T00:00:00Z');
    const [sql, params] = keysetPageSql({
      select: '*',
      from: 't',
      equal: [['org_id', 'o']],
      ranges: [
        ['created_at', '>=', since],
        ['created_at', '<', undefined],
      ],
      after: null,
      limit: 5,
    });
    expect(sql).toBe('SELECT * FROM t WHERE "org_id" = $1 AND "created_at" >= $2 ORDER BY "created_at" DESC, "id" DESC LIMIT $3');
    expect(params).toEqual(['o', since, 6]);
  });
});
