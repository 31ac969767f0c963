import { boundElsewhere, labelBinds, labelPrefixes, matchLabelBindings, matchToolBindings, specificityOf, type BindableIntention } from './tool-bindings';

const i = (id: string, label: string, tools: string[] = []): BindableIntention => ({ id, label, tools });

describe('tool bindings', () => {
  it('a literal beats a star, a star beats a globstar', () => {
    const exact = i('a', 'crm.get', ['crm.contacts.get']);
    const star = i('b', 'crm.any', ['crm.contacts.*']);
    const deep = i('c', 'crm.all', ['crm.**']);
    expect(matchToolBindings('crm.contacts.get', [deep, star, exact])).toEqual({
      kind: 'bound',
      match: { intention: exact, pattern: 'crm.contacts.get', kind: 'tools' },
    });
    expect(matchToolBindings('crm.contacts.list', [deep, star, exact])).toMatchObject({ kind: 'bound', match: { intention: star } });
    expect(matchToolBindings('crm.deals.list', [deep, star, exact])).toMatchObject({ kind: 'bound', match: { intention: deep } });
    expect(specificityOf('a.*')).toEqual([2, 0, -1]);
  });

  it('equally specific patterns of two intentions are a tie, named in label order', () => {
    const a = i('a', 'x.read', ['hubspot.g*']);
    const b = i('b', 'a.read', ['hubspot.*t']);
    const r = matchToolBindings('hubspot.get_contact', [a, b]);
    expect(r.kind).toBe('tie');
    expect(r.kind === 'tie' && r.matches.map((m) => m.intention.id)).toEqual(['b', 'a']);
  });

  it('`*` stays within a segment; nothing matches, nothing is bound', () => {
    expect(matchToolBindings('crm.contacts.get', [i('a', 'crm.x', ['crm.*'])])).toEqual({ kind: 'none' });
    expect(boundElsewhere(i('a', 'crm.x', ['crm.*']), 'crm.contacts.get')).toBe(true);
    expect(boundElsewhere(i('a', 'crm.x', ['crm.**']), 'crm.contacts.get')).toBe(false);
    expect(boundElsewhere(i('a', 'crm.x'), 'anything')).toBe(false);
  });

  it('a label binds a tool named after it at a word boundary, with no second action verb', () => {
    expect(labelBinds('crm.lookup', 'crm.lookup_contact')).toBe(true);
    expect(labelBinds('crm.lookup', 'crm_lookup')).toBe(true);
    expect(labelBinds('sdk.crm_lookup', 'sdk.crm_lookup_contact')).toBe(true);
    expect(labelBinds('crm.lookup', 'crm.lookups')).toBe(false);
    expect(labelBinds('crm.lookup', 'crm.lookup_and_delete_contact')).toBe(false);
    expect(labelBinds('crm.lookup', 'hubspot.crm.lookup')).toBe(false);
    expect(labelBinds('refund', 'refund_payment')).toBe(false);
    expect(labelPrefixes('crm.lookup_contact')).toEqual(['crm.lookup.contact', 'crm.lookup']);
  });

  it('name bindings: the longest label wins, intentions with `tools` are never bound by name', () => {
    const short = i('a', 'crm.lookup');
    const long = i('b', 'crm.lookup.contact');
    const tooled = i('c', 'crm.lookup_contact', ['other.tool']);
    const named = (key: string) => [short, long, tooled].filter((x) => x.label.replace(/[._-]/g, '.') === key);
    expect(matchLabelBindings('crm.lookup_contact_by_email', named)).toMatchObject({ kind: 'bound', match: { intention: long, kind: 'label' } });
    expect(matchLabelBindings('crm.lookup_deal', named)).toMatchObject({ kind: 'bound', match: { intention: short } });
    expect(matchLabelBindings('billing.refund', named)).toEqual({ kind: 'none' });
  });
});
