import type { ErrorDetail } from '@igw/kernel';
import { checkToolBindings } from './tool-bindings';

const check = (tools: string[]) => {
  const details: ErrorDetail[] = [];
  return { tools: checkToolBindings(tools, details), paths: details.map((d) => d.path), details };
};

describe('tool bindings', () => {
  it('keep valid scope-glob patterns in order, each once', () => {
    expect(check(['hubspot.get_contact', 'hubspot.search_*', 'hubspot.get_contact', 'db.**'])).toEqual({
      tools: ['hubspot.get_contact', 'hubspot.search_*', 'db.**'],
      paths: [],
      details: [],
    });
  });

  it('name each bad pattern by its index: empty, too many wildcards, blanks, control characters, too long', () => {
    const { paths, details } = check(['ok.tool', '', 'a*'.repeat(33), 'crm. lookup', 'tab\tname', 'x'.repeat(257)]);
    expect(paths).toEqual(['tools[1]', 'tools[2]', 'tools[3]', 'tools[4]', 'tools[5]']);
    expect(details[1]?.message).toBe('tools[2] must use at most 32 wildcards');
    expect(details[2]?.message).toMatch(/^tools\[3\] must not contain blanks/);
  });

  it('refuse more than 100 patterns as a whole', () => {
    expect(check(Array.from({ length: 101 }, (_, i) => `t.${i}`)).paths).toEqual(['tools']);
  });
});
