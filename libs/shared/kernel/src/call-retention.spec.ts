import { keptCall, retentionCutoff } from './call-retention';

describe('call retention (DESIGN 6.16)', () => {
  const call = { name: 'crm.lookup', q: 'ada' };
  const json = JSON.stringify(call);

  it('keeps the call as it was given while retention is on and it is under the cap', () => {
    expect(keptCall(call, json, { days: 7, maxBytes: 1024 })).toBe(call);
  });

  it('keeps nothing when retention is 0 days', () => {
    expect(keptCall(call, json, { days: 0, maxBytes: 1024 })).toBeNull();
  });

  it('counts UTF-8 bytes, not characters, against the cap', () => {
    const text = JSON.stringify('é'.repeat(400)); // 802 bytes, 402 characters
    expect(keptCall(call, text, { days: 7, maxBytes: 600 })).toBeNull();
    expect(keptCall(call, text, { days: 7, maxBytes: 802 })).toBe(call);
  });

  it('the cutoff is the window before now; 0 days is now', () => {
    const now = new Date('2026-11-27T12:00:00.000Z');
    expect(retentionCutoff(now, { days: 7 }).toISOString()).toBe('2026-11-20T12:00:00.000Z');
    expect(retentionCutoff(now, { days: 0 }).toISOString()).toBe(now.toISOString());
  });
});
