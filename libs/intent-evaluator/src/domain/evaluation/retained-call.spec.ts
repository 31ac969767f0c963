import { retainedCall, retentionCutoff } from './retained-call';

describe('retained calls (DESIGN 6.16)', () => {
  const call = { toolName: 'crm.lookup_contact', arguments: { q: 'ada' }, conversationContext: [{ role: 'user', content: 'find Ada' }] };

  it('keeps the call as it was given while retention is on and the call is under the cap', () => {
    expect(retainedCall(call, { days: 7, maxBytes: 1024 })).toEqual(call);
  });

  it('keeps nothing when retention is 0 days', () => {
    expect(retainedCall(call, { days: 0, maxBytes: 1024 })).toBeNull();
  });

  it('leaves out a call over the size cap, counting UTF-8 bytes, not characters', () => {
    const text = 'é'.repeat(400); // 800 bytes, 400 characters
    const big = { toolName: 't', arguments: { text } };
    expect(retainedCall(big, { days: 7, maxBytes: 600 })).toBeNull();
    expect(retainedCall(big, { days: 7, maxBytes: 900 })).toEqual(big);
  });

  it('counts the conversation context toward the cap', () => {
    const long = { toolName: 't', conversationContext: [{ role: 'user', content: 'x'.repeat(2000) }] };
    expect(retainedCall(long, { days: 7, maxBytes: 1024 })).toBeNull();
  });

  it('the cutoff is the window before now', () => {
    const now = new Date('2026-11-27T12:00:00.000Z');
    expect(retentionCutoff(now, { days: 7, maxBytes: 1 }).toISOString()).toBe('2026-11-20T12:00:00.000Z');
  });
});
