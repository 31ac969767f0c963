import { affirmativeSentences, canonical, splitWords, stem, tokenize } from './tokenize';

describe('splitWords', () => {
  it.each([
    ['crm.get_customer', ['crm', 'get', 'customer']],
    ['hubspot-search-objects', ['hubspot', 'search', 'objects']],
    ['billing/invoices/search', ['billing', 'invoices', 'search']],
    ['mcp__github__list_commits', ['mcp', 'github', 'list', 'commits']],
    ['getCustomerByEmail', ['get', 'customer', 'by', 'email']],
    ['getHTTPResponseCode', ['get', 'http', 'response', 'code']],
    ['S3Bucket v2', ['s', '3', 'bucket', 'v', '2']],
    ['  ', []],
  ])('%s', (input, expected) => {
    expect(splitWords(input)).toEqual(expected);
  });
});

describe('stem', () => {
  it('merges inflections of one word', () => {
    for (const group of [
      ['create', 'creates', 'created', 'creating'],
      ['invoice', 'invoices'],
      ['query', 'queries'],
      ['ship', 'shipped', 'shipping'],
      ['schedule', 'scheduling', 'scheduled'],
      ['match', 'matches'],
    ]) {
      expect(new Set(group.map(stem)).size).toBe(1);
    }
  });

  it('leaves words that only look inflected alone', () => {
    expect(stem('status')).toBe('status');
    expect(stem('analysis')).toBe('analysis');
    expect(stem('address')).toBe('address');
    expect(stem('string')).toBe('string');
    expect(stem('need')).toBe('need');
    expect(stem('add')).toBe('add');
    expect(stem('adding')).toBe('add');
    expect(stem('billing')).toBe('bill');
  });

  it('does not strip -er (customer stays apart from custom)', () => {
    expect(stem('customer')).not.toBe(stem('custom'));
  });
});

describe('verb concepts', () => {
  it('maps read, write, delete, export and send synonyms onto one term each', () => {
    expect(['get', 'fetch', 'retrieve', 'lookup', 'search', 'list', 'query', 'view'].map((w) => canonical(stem(w)))).toEqual(Array(8).fill('read'));
    expect(['create', 'update', 'insert', 'edit', 'modify', 'write', 'save'].map((w) => canonical(stem(w)))).toEqual(Array(7).fill('write'));
    expect(['delete', 'remove', 'drop', 'erase'].map((w) => canonical(stem(w)))).toEqual(Array(4).fill('delete'));
    expect(['export', 'download', 'dump'].map((w) => canonical(stem(w)))).toEqual(Array(3).fill('export'));
    expect(['send', 'reply', 'forward'].map((w) => canonical(stem(w)))).toEqual(Array(3).fill('send'));
  });

  it('keeps other words as they are', () => {
    expect(canonical('invoic')).toBe('invoic');
  });
});

describe('tokenize', () => {
  it('splits, lowercases, drops stop words and numbers, stems and maps verbs', () => {
    expect(tokenize('getInvoicesForTheCustomer_2024')).toEqual(['read', 'invoic', 'customer']);
    expect(tokenize('Look up a customer by e-mail')).toEqual(['read', 'customer', 'mail']);
  });

  it('reads read and write tool names apart', () => {
    expect(tokenize('hubspot.get_contact')).toContain('read');
    expect(tokenize('hubspot.update_contact')).toContain('write');
    expect(tokenize('hubspot.update_contact')).not.toContain('read');
  });

  it('expands common abbreviations', () => {
    expect(tokenize('list_repos')).toEqual(['read', 'repository']);
    expect(tokenize('request_pto')).toEqual(['request', 'tim', 'off']);
  });

  it('keeps "list" a noun in prose and a verb in identifiers', () => {
    expect(tokenize('list_contacts')).toEqual(['read', 'contact']);
    expect(tokenize('Export the contact list', { prose: true })).toEqual(['export', 'contact', 'list']);
  });

  it('drops structural API words', () => {
    expect(tokenize('hubspot-batch-update-objects')).toEqual(['hubspot', 'write']);
  });

  it('can drop tokens with digits (ids in argument values)', () => {
    expect(tokenize('cus_Nf82kd0 refund', { dropDigits: true })).toEqual(['cus', 'refund']);
  });
});

describe('affirmativeSentences', () => {
  it('drops sentences that state an exclusion', () => {
    const d = 'Edit fields on a contact. Deleting records is not covered. No DDL or DML; read-only queries.';
    expect(affirmativeSentences(d)).toBe('Edit fields on a contact. read-only queries.');
  });
});
