import { AppError } from './errors';
import { decodeCursor, encodeCursor, parseKeysetQuery, toPage, type QueryValue } from './keyset-paging';

const parsePageQuery = (q: { limit?: QueryValue; cursor?: QueryValue }) => parseKeysetQuery(q, { defaultLimit: 200 });

const invalidAt = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('invalid_request');
    return ((e as AppError).extra['details'] as { path: string }[])[0]!.path;
  }
  return undefined;
};

describe('paging', () => {
  it('defaults to 200 rows from the start', () => {
    expect(parsePageQuery({})).toEqual({ limit: 200, after: null });
    expect(parsePageQuery({ limit: '1' }).limit).toBe(1);
  });

  it.each(['0', '201', '-1', '1.5', 'abc', '', ' 5'])('refuses limit=%p naming the parameter', (limit) => {
    expect(invalidAt(() => parsePageQuery({ limit }))).toBe('limit');
  });

  it('refuses a repeated parameter', () => {
    expect(invalidAt(() => parsePageQuery({ limit: ['1', '2'] }))).toBe('limit');
  });

  it('round-trips an opaque cursor', () => {
    const key = { createdAt: new Date('2026-01-01T00:00:00.123Z'), id: 'int_1' };
    const cursor = encodeCursor(key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(key);
    expect(parsePageQuery({ cursor }).after).toEqual(key);
  });

  it.each(['not a cursor', 'e30', Buffer.from('{"created_at":"yesterday","id":"x"}').toString('base64url'), Buffer.from('[1]').toString('base64url')])(
    'refuses the malformed cursor %p',
    (cursor) => {
      expect(invalidAt(() => parsePageQuery({ cursor }))).toBe('cursor');
    },
  );

  it('cuts limit + 1 rows into a page and the next cursor', () => {
    const rows = [3, 2, 1].map((n) => ({ createdAt: new Date(n * 1000), id: `x_${n}` }));
    const page = toPage(rows, 2);
    expect(page.items.map((r) => r.id)).toEqual(['x_3', 'x_2']);
    expect(decodeCursor(page.nextCursor!)).toEqual({ createdAt: new Date(2000), id: 'x_2' });
    expect(toPage(rows, 3).nextCursor).toBeNull();
  });
});
