import { MAX_CANONICAL_DEPTH } from '@igw/kernel';
import { archiveIntention, createIntention, publishIntention, type Intention } from './intention';
import { createExample, teachExamples, type ExampleLimits, type TeachTarget } from './intention-example';

const t0 = new Date('2026-01-01T00:00:00.000Z');
const limits: ExampleLimits = { perIntention: 3, bytes: 512 };
const draft = (label = 'crm.lookup'): Intention => createIntention(`int_${label}`, 'org_1', { label, intentClass: 'lookup' }, t0);
const active = (label = 'crm.lookup'): Intention => publishIntention(draft(label), t0)!;
const call = { toolCall: { name: 'crm.get', arguments: { id: 7 } }, covered: true, source: 'manual' as const };

describe('intention examples', () => {
  it('belong to a draft or active intention of its org', () => {
    for (const intention of [draft(), active()]) {
      expect(createExample('iex_1', intention, 0, call, limits, t0)).toEqual({
        id: 'iex_1',
        orgId: 'org_1',
        intentionId: intention.id,
        toolCall: { name: 'crm.get', arguments: { id: 7 } },
        conversationContext: null,
        covered: true,
        source: 'manual',
        approvalId: null,
        createdAt: t0,
      });
    }
  });

  it('are refused by an archived intention (409 invalid_transition) and a full one (409 example_limit)', () => {
    expect(() => createExample('iex_1', archiveIntention(draft(), t0)!, 0, call, limits, t0)).toThrow(
      expect.objectContaining({ kind: 'conflict', code: 'invalid_transition' }),
    );
    expect(() => createExample('iex_1', draft(), 3, call, limits, t0)).toThrow(expect.objectContaining({ kind: 'conflict', code: 'example_limit' }));
  });

  it('are at most `bytes` of JSON with their context (400 naming tool_call)', () => {
    const big = { ...call, conversationContext: [{ role: 'user', content: 'x'.repeat(500) }] };
    expect(() => createExample('iex_1', draft(), 0, big, limits, t0)).toThrow(
      expect.objectContaining({ code: 'invalid_request', extra: { details: [expect.objectContaining({ path: 'tool_call' })] } }),
    );
  });

  it('check the arguments like an evaluated call: too deep is a 400 naming tool_call.arguments', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < MAX_CANONICAL_DEPTH + 1; i++) deep = { a: deep };
    expect(() => createExample('iex_1', draft(), 0, { ...call, toolCall: { name: 'crm.get', arguments: deep } }, { ...limits, bytes: 1e6 }, t0)).toThrow(
      expect.objectContaining({ code: 'invalid_request', extra: { details: [expect.objectContaining({ path: 'tool_call.arguments' })] } }),
    );
  });
});

describe('teaching from an approval', () => {
  const ids = () => {
    let n = 0;
    return () => `iex_${++n}`;
  };
  const targets = (...list: [Intention, number][]) => new Map<string, TeachTarget>(list.map(([intention, count]) => [intention.label, { intention, count }]));
  const taughtCall = { toolCall: { name: 'crm.get' } };

  it('stores one example per label, from the approval', () => {
    const examples = teachExamples(
      ids(),
      'apr_1',
      taughtCall,
      [
        { intentionLabel: 'crm.lookup', covered: true },
        { intentionLabel: 'crm.export', covered: false },
      ],
      targets([active(), 0], [active('crm.export'), 1]),
      limits,
      t0,
    );
    expect(examples.map((e) => [e.id, e.intentionId, e.covered, e.source, e.approvalId])).toEqual([
      ['iex_1', 'int_crm.lookup', true, 'approval', 'apr_1'],
      ['iex_2', 'int_crm.export', false, 'approval', 'apr_1'],
    ]);
  });

  it('answer 404 intent_not_found naming a label that is unknown or not active', () => {
    for (const found of [targets(), targets([draft(), 0])]) {
      expect(() => teachExamples(ids(), 'apr_1', taughtCall, [{ intentionLabel: 'crm.lookup', covered: true }], found, limits, t0)).toThrow(
        expect.objectContaining({
          kind: 'not_found',
          code: 'intent_not_found',
          extra: { details: [expect.objectContaining({ path: 'examples[0].intention_label' })] },
        }),
      );
    }
  });

  it('hold the limit and refuse a label named twice or no example at all', () => {
    expect(() => teachExamples(ids(), 'apr_1', taughtCall, [{ intentionLabel: 'crm.lookup', covered: true }], targets([active(), 3]), limits, t0)).toThrow(
      expect.objectContaining({ code: 'example_limit' }),
    );
    const twice = [
      { intentionLabel: 'crm.lookup', covered: true },
      { intentionLabel: 'crm.lookup', covered: false },
    ];
    expect(() => teachExamples(ids(), 'apr_1', taughtCall, twice, targets([active(), 0]), limits, t0)).toThrow(
      expect.objectContaining({ code: 'invalid_request' }),
    );
    expect(() => teachExamples(ids(), 'apr_1', taughtCall, [], targets(), limits, t0)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });
});
