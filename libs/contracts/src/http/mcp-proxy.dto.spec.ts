import { DECISION_KINDS } from '@igw/kernel';
import { DECISION_HTTP_STATUS } from './mcp-proxy.dto';

// spec 0.6.0, "Decision kinds and HTTP status", row by row.
const SPEC_TABLE: [string, number][] = [
  ['allow', 200],
  ['allow_with_log_extra', 200],
  ['allow_with_redact', 200],
  ['allow_with_downgrade', 200],
  ['allow_with_shadow', 200],
  ['defer', 202],
  ['negotiate', 202],
  ['substitute', 202],
  ['approval', 428],
  ['step_up', 428],
  ['deny', 403],
  ['deny_with_reroute', 403],
];

describe('DECISION_HTTP_STATUS', () => {
  it('covers every decision kind', () => {
    expect(Object.keys(DECISION_HTTP_STATUS).sort()).toEqual([...DECISION_KINDS].sort());
  });

  it.each(SPEC_TABLE)('%s answers %i', (kind, status) => {
    expect(DECISION_HTTP_STATUS[kind as keyof typeof DECISION_HTTP_STATUS]).toBe(status);
  });
});
