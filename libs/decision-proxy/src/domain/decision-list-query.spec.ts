import { AppError, encodeCursor } from '@igw/kernel';
import { parseDecisionListQuery } from './decision-list-query';

const refusal = (q: Parameters<typeof parseDecisionListQuery>[0]) => {
  try {
    parseDecisionListQuery(q);
  } catch (err) {
    return err as AppError & { extra: { details: { path: string; message: string }[] } };
  }
  throw new Error('no refusal');
};

describe('parseDecisionListQuery', () => {
  it('reads the filters, the page size and the cursor', () => {
    const after = { createdAt: new Date('2026-11-01T10:00:00Z'), id: 'dec_9' };
    expect(
      parseDecisionListQuery({
        cred_id: 'cred_abc',
        kind: 'deny',
        since: '2026-11-01',
        until: '2026-11-02T00:00:00+01:00',
        limit: '20',
        cursor: encodeCursor(after),
      }),
    ).toEqual({
      credId: 'cred_abc',
      kind: 'deny',
      since: new Date('2026-11-01T00:00:00Z'),
      until: new Date('2026-11-01T23:00:00Z'),
      limit: 20,
      after,
      includeCall: false,
    });
    expect(parseDecisionListQuery({})).toEqual({ limit: 50, after: null, includeCall: false });
  });

  it('reads include=call, and names include when it is anything else or given twice', () => {
    expect(parseDecisionListQuery({ include: 'call' }).includeCall).toBe(true);
    expect(refusal({ include: 'calls' }).extra.details).toEqual([{ path: 'include', message: 'include must be one of call' }]);
    expect(refusal({ include: ['call', 'call'] }).extra.details).toEqual([{ path: 'include', message: 'include must be given once' }]);
  });

  it('names every offending parameter at once', () => {
    const err = refusal({ kind: 'maybe', since: 'yesterday', limit: '0', cursor: '%%%', cred_id: 'x y' });
    expect(err.code).toBe('invalid_request');
    expect(err.extra.details.map((d) => d.path).sort()).toEqual(['cred_id', 'cursor', 'kind', 'limit', 'since']);
    expect(err.extra.details.find((d) => d.path === 'kind')?.message).toMatch(/kind must be one of allow, /);
  });

  it('refuses a time range that ends before it starts, and a parameter given twice', () => {
    expect(refusal({ since: '2026-11-02', until: '2026-11-01' }).extra.details).toEqual([{ path: 'until', message: 'until must be later than since' }]);
    expect(refusal({ kind: ['allow', 'deny'] }).extra.details[0]?.path).toBe('kind');
  });
});
