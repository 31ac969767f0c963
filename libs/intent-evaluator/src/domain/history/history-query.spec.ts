import { AppError, encodeCursor } from '@igw/kernel';
import { HISTORY_LIMIT, parseHistoryQuery } from './history-query';

/** The `details` paths of the 400 a call throws (undefined when it does not throw). */
const invalidPaths = (fn: () => unknown): string[] | undefined => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('invalid_request');
    expect((e as AppError).kind).toBe('invalid');
    return ((e as AppError).extra['details'] as { path: string }[]).map((d) => d.path);
  }
  return undefined;
};

describe('history query', () => {
  it('defaults to 50 events, no filter, from the newest', () => {
    expect(parseHistoryQuery({})).toEqual({ limit: 50, outcome: null, since: null, after: null, includeCall: false });
    expect(HISTORY_LIMIT).toEqual({ default: 50, max: 200 });
  });

  it('takes limit 1 to 200, every outcome, since and a cursor', () => {
    const key = { createdAt: new Date('2026-01-01T00:00:00.123Z'), id: 'iev_1' };
    expect(parseHistoryQuery({ limit: '200', outcome: 'shadow_denied', since: '2026-01-01T12:30:00+02:00', cursor: encodeCursor(key) })).toEqual({
      limit: 200,
      outcome: 'shadow_denied',
      since: new Date('2026-01-01T10:30:00Z'),
      after: key,
      includeCall: false,
    });
    expect(parseHistoryQuery({ include: 'call' }).includeCall).toBe(true);
    expect(parseHistoryQuery({ limit: '1' }).limit).toBe(1);
    for (const outcome of ['allowed', 'denied', 'pending_approval', 'approved', 'shadow_denied']) expect(parseHistoryQuery({ outcome }).outcome).toBe(outcome);
    expect(parseHistoryQuery({ cursor: '' }).after).toBeNull();
  });

  it.each(['201', '1000', '0', '-1', '1.5', 'abc', '', ' 5', '1e2', '9999999'])('refuses limit=%p naming limit', (limit) => {
    expect(invalidPaths(() => parseHistoryQuery({ limit }))).toEqual(['limit']);
  });

  it('says what the limit range is', () => {
    try {
      parseHistoryQuery({ limit: '201' });
    } catch (e) {
      expect((e as AppError).message).toBe('limit must be an integer from 1 to 200');
    }
    expect.assertions(1);
  });

  it.each(['allow', 'ALLOWED', '', 'ambient'])('refuses outcome=%p naming outcome', (outcome) => {
    expect(invalidPaths(() => parseHistoryQuery({ outcome }))).toEqual(['outcome']);
  });

  it.each([
    'yesterday',
    '',
    '2026-02-30',
    '2026-13-01',
    '2026-01-01T10:00:00',
    '2026-01-01T24:00:00Z',
    '2026-01-01T10:60Z',
    '2026-01-01 10:00:00Z',
    '1735689600',
  ])('refuses since=%p naming since', (since) => {
    expect(invalidPaths(() => parseHistoryQuery({ since }))).toEqual(['since']);
  });

  it.each(['calls', 'CALL', '', 'call,evidence', 'evidence'])('refuses include=%p naming include', (include) => {
    expect(invalidPaths(() => parseHistoryQuery({ include }))).toEqual(['include']);
  });

  it('refuses a repeated parameter', () => {
    expect(invalidPaths(() => parseHistoryQuery({ limit: ['1', '2'] }))).toEqual(['limit']);
    expect(invalidPaths(() => parseHistoryQuery({ outcome: ['allowed', 'denied'] }))).toEqual(['outcome']);
  });

  it('reports every bad parameter at once', () => {
    expect(invalidPaths(() => parseHistoryQuery({ limit: '500', outcome: 'nope', since: 'then', cursor: 'bad!' }))).toEqual([
      'limit',
      'outcome',
      'since',
      'cursor',
    ]);
  });
});
