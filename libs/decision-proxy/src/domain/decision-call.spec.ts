import { retainedDecisionCall } from './decision-call';

describe('kept mandate-path calls (DESIGN 6.16)', () => {
  const action = { surface: 'sdk', operation: 'crm.read', target_resource: 'crm://contacts/1', arguments: { q: 'ada' } };

  it('keeps the action and context as they were decided, and nothing else', () => {
    const command = { action, context: { ticket: 'T-1' }, audience: 'crm' };
    expect(retainedDecisionCall(command, { days: 7, maxBytes: 1024 })).toEqual({ action, context: { ticket: 'T-1' } });
    expect(retainedDecisionCall({ action }, { days: 7, maxBytes: 1024 })).toEqual({ action });
  });

  it('keeps nothing when retention is 0 days', () => {
    expect(retainedDecisionCall({ action }, { days: 0, maxBytes: 1024 })).toBeNull();
  });

  it('counts the arguments and the context toward the cap', () => {
    const big = { action: { ...action, arguments: { text: 'é'.repeat(400) } } };
    expect(retainedDecisionCall(big, { days: 7, maxBytes: 600 })).toBeNull();
    expect(retainedDecisionCall(big, { days: 7, maxBytes: 2000 })).toEqual(big);
    expect(retainedDecisionCall({ action, context: { note: 'x'.repeat(2000) } }, { days: 7, maxBytes: 1024 })).toBeNull();
  });
});
