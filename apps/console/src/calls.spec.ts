import { InputError, formatArguments, parseArguments, parsePatterns, patternsText, percent, reasonText, teachable } from './calls.js';

describe('console call helpers', () => {
  it('reads tool patterns separated by commas and/or lines, and shows them one per line', () => {
    expect(parsePatterns('erp.fetch_*, stripe.**\n\n  crm.get_contact ,')).toEqual(['erp.fetch_*', 'stripe.**', 'crm.get_contact']);
    expect(parsePatterns('  ')).toEqual([]);
    expect(parsePatterns(undefined)).toEqual([]);
    expect(patternsText(['a.b', 'c.*'])).toBe('a.b\nc.*');
  });

  it('parses arguments JSON into an object, or an error that names the field', () => {
    expect(parseArguments('')).toBeUndefined();
    expect(parseArguments(' {"entry_id": "LE-1"} ')).toEqual({ entry_id: 'LE-1' });
    for (const bad of ['{nope', '[1]', '"x"', 'null']) {
      const err = (() => {
        try {
          parseArguments(bad, 'tool_call.arguments');
        } catch (e) {
          return e as InputError;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(InputError);
      expect(err?.details[0]?.path).toBe('tool_call.arguments');
    }
  });

  it('formats arguments, confidences and the reason an approval asks', () => {
    expect(formatArguments({ a: '<b>' })).toBe('{\n  "a": "<b>"\n}');
    expect(formatArguments(undefined)).toBe('{}');
    expect([percent(0.4249), percent(1), percent(undefined)]).toEqual(['42%', '100%', '—']);
    expect(reasonText({ reason_code: 'uncertain_match' })).toBe('Uncertain match');
    expect(reasonText({ reason_code: 'approval_required' })).toBe('Approval required');
    expect(reasonText({ reason_code: null, source: 'mcp_proxy' })).toBe('Mandate decision');
    expect(teachable({ source: 'evaluate', tool_call: { name: 't' } })).toBe(true);
    expect(teachable({ source: 'mcp_proxy', tool_call: null })).toBe(false);
  });
});
