import { fieldMatchesPath, namedFields, resolveDataElements, type DataElementRef } from './data-elements';

const allowed: DataElementRef[] = [
  { dataSourceId: 'crm', path: 'customers.email' },
  { dataSourceId: 'crm', path: 'customers.name' },
  { dataSourceId: 'crm', path: 'leads.email' },
  { dataSourceId: 'billing', path: 'invoices.total' },
  { dataSourceId: 'billing', path: 'email' },
];

describe('data elements', () => {
  describe('named fields', () => {
    it('reads columns, fields and select as a string or an array of strings, ignoring other values', () => {
      expect(namedFields({ columns: ['a', 1, null, 'b', { c: 1 }], fields: 'c', select: 7 })).toEqual(['a', 'b', 'c']);
      expect(namedFields({ select: ['x'], other: ['y'] })).toEqual(['x']);
    });

    it('splits comma lists, trims, drops empties and duplicates', () => {
      expect(namedFields({ select: ' name, email ,,', fields: ['email', 'id,name'] })).toEqual(['email', 'id', 'name']);
    });

    it('names nothing for absent, empty or non-object arguments', () => {
      for (const args of [undefined, null, 'columns', ['columns'], {}, { columns: [] }, { columns: '' }, { columns: [1, 2] }]) {
        expect(namedFields(args)).toEqual([]);
      }
    });

    it('only reads own properties', () => {
      const args = Object.create({ columns: ['inherited'] }) as object;
      expect(namedFields(args)).toEqual([]);
    });
  });

  describe('field ↔ path matching', () => {
    it.each([
      ['customers.email', 'customers.email'],
      ['email', 'customers.email'],
      ['customers.email', 'crm.customers.email'],
      ['email', 'email'],
    ])('%p matches %p', (field, path) => expect(fieldMatchesPath(field, path)).toBe(true));

    it.each([
      ['mail', 'customers.email'],
      ['s.email', 'customers.email'],
      ['Email', 'customers.email'],
      ['customers', 'customers.email'],
      ['customers.email.domain', 'customers.email'],
      ['*', 'customers.email'],
      ['', 'customers.email'],
    ])('%p does not match %p', (field, path) => expect(fieldMatchesPath(field, path)).toBe(false));
  });

  it('approves the whole list when no field is named', () => {
    expect(resolveDataElements({ allowed, arguments: { q: 'x' } })).toEqual({
      ok: true,
      approved: ['crm:customers.email', 'crm:customers.name', 'crm:leads.email', 'billing:invoices.total', 'billing:email'],
    });
  });

  it('approves the whole list of the given data source when no field is named', () => {
    expect(resolveDataElements({ allowed, dataSourceId: 'billing' })).toEqual({ ok: true, approved: ['billing:invoices.total', 'billing:email'] });
  });

  it('approves nothing for a data source the intention does not list', () => {
    expect(resolveDataElements({ allowed, dataSourceId: 'hr' })).toEqual({ ok: true, approved: [] });
    expect(resolveDataElements({ allowed, dataSourceId: 'hr', arguments: { columns: ['email'] } })).toEqual({ ok: false, refused: ['email'] });
  });

  it('approves the intersection of the named fields with the list, in the list order', () => {
    expect(resolveDataElements({ allowed, arguments: { columns: ['customers.name', 'customers.email'] } })).toEqual({
      ok: true,
      approved: ['crm:customers.email', 'crm:customers.name'],
    });
  });

  it('approves every path a bare field name matches, within the data source when given', () => {
    expect(resolveDataElements({ allowed, arguments: { fields: 'email' } })).toEqual({
      ok: true,
      approved: ['crm:customers.email', 'crm:leads.email', 'billing:email'],
    });
    expect(resolveDataElements({ allowed, dataSourceId: 'crm', arguments: { fields: 'email' } })).toEqual({
      ok: true,
      approved: ['crm:customers.email', 'crm:leads.email'],
    });
  });

  it('denies a named field outside the list, naming every refused field', () => {
    expect(resolveDataElements({ allowed, arguments: { select: 'name, ssn, *', columns: ['salary'] } })).toEqual({
      ok: false,
      refused: ['salary', 'ssn', '*'],
    });
  });

  it('refuses a field the list has only for another data source', () => {
    expect(resolveDataElements({ allowed, dataSourceId: 'crm', arguments: { columns: ['invoices.total'] } })).toEqual({
      ok: false,
      refused: ['invoices.total'],
    });
  });

  it('refuses every named field when the intention lists no data elements', () => {
    expect(resolveDataElements({ allowed: [], arguments: { columns: ['id'] } })).toEqual({ ok: false, refused: ['id'] });
    expect(resolveDataElements({ allowed: [] })).toEqual({ ok: true, approved: [] });
  });

  it('lists a duplicated allowed element once', () => {
    const dup = [...allowed, { dataSourceId: 'crm', path: 'customers.email' }];
    expect(resolveDataElements({ allowed: dup, dataSourceId: 'crm', arguments: { columns: 'customers.email' } })).toEqual({
      ok: true,
      approved: ['crm:customers.email'],
    });
  });
});
