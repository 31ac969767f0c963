import { parsePageQuery } from './paging';

describe('approvals paging', () => {
  it('lists 50 approval requests per page unless asked otherwise, 200 at most', () => {
    expect(parsePageQuery({}).limit).toBe(50);
    expect(parsePageQuery({ limit: '200' }).limit).toBe(200);
    expect(() => parsePageQuery({ limit: '201' })).toThrow(/limit/);
  });
});
