import { AppError } from '@igw/kernel';
import { failureOf } from '@igw/testing/unit';
import { requestApproval, type NewApproval } from './approval';
import { assertTeachable, lessonsOf } from './approval-teaching';

const t0 = new Date('2026-03-01T10:00:00.000Z');
const request = (extra: Partial<NewApproval> = {}) =>
  requestApproval(
    'apr_1',
    'org_a',
    'key_agent',
    { source: 'evaluate', intentLabel: 'crm.export', toolName: 'export', summary: 's', fingerprint: 'fp', toolCall: { name: 'export' }, ...extra },
    t0,
  );
const paths = (fn: () => unknown) => (failureOf(fn, AppError).extra['details'] as { path: string }[]).map((d) => d.path);

describe('teaching from an approval', () => {
  it('only an evaluate request holding its call can be taught from: 400 naming each field asked', () => {
    expect(() => assertTeachable(request(), { remember: true, intentLabel: 'crm.report' })).not.toThrow();
    const proxy = request({ source: 'mcp_proxy', intentLabel: null, intentCardId: 'card_1' });
    expect(paths(() => assertTeachable(proxy, { remember: true }))).toEqual(['remember']);
    expect(paths(() => assertTeachable(proxy, { remember: true, intentLabel: 'crm.report' }))).toEqual(['remember', 'intent_label']);
    expect(paths(() => assertTeachable(request({ toolCall: null }), { intentLabel: 'crm.report' }))).toEqual(['intent_label']);
    // Not asking is always fine.
    expect(() => assertTeachable(proxy, { remember: false, intentLabel: null })).not.toThrow();
  });

  it('approve: a positive example of the approved intention, and a negative one of a corrected candidate; deny: a negative one', () => {
    const a = request();
    expect(lessonsOf(a, 'approved')).toEqual([{ intentionLabel: 'crm.export', covered: true }]);
    expect(lessonsOf(a, 'approved', 'crm.export')).toEqual([{ intentionLabel: 'crm.export', covered: true }]);
    expect(lessonsOf(a, 'approved', 'crm.report')).toEqual([
      { intentionLabel: 'crm.report', covered: true },
      { intentionLabel: 'crm.export', covered: false },
    ]);
    expect(lessonsOf(a, 'denied')).toEqual([{ intentionLabel: 'crm.export', covered: false }]);
  });
});
