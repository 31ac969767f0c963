import { newId, uuidv7 } from './ids';

describe('ids', () => {
  it('are prefixed and unique', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId('int')));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^int_[0-9a-f]{32}$/);
  });

  it('sort in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 500 }, () => uuidv7(1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(uuidv7()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
