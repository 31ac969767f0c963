import { inflectionStem, stem } from './stem';
import { ACTION_VERBS, affirmativeSentences, canonical, exclusionTerms, splitExclusions, splitWords, tokenize } from './index';

describe('splitWords', () => {
  it.each([
    ['crm.get_customer', ['crm', 'get', 'customer']],
    ['hubspot-search-objects', ['hubspot', 'search', 'objects']],
    ['billing/invoices/search', ['billing', 'invoices', 'search']],
    ['mcp__github__list_commits', ['mcp', 'github', 'list', 'commits']],
    ['getCustomerByEmail', ['get', 'customer', 'by', 'email']],
    ['getHTTPResponseCode', ['get', 'http', 'response', 'code']],
    ['ABc', ['a', 'bc']],
    ['S3Bucket v2', ['s', '3', 'bucket', 'v', '2']],
    ['x1y2', ['x', '1', 'y', '2']],
    ['émail ünd  café', ['mail', 'nd', 'caf']],
    ['  ', []],
    ['', []],
  ])('%s', (input, expected) => {
    expect(splitWords(input)).toEqual(expected);
  });
});

describe('stem (Porter)', () => {
  it('merges inflections of one word', () => {
    for (const group of [
      ['create', 'creates', 'created', 'creating'],
      ['invoice', 'invoices'],
      ['query', 'queries'],
      ['ship', 'shipped', 'shipping'],
      ['schedule', 'scheduling', 'scheduled'],
      ['match', 'matches'],
      ['add', 'adds'],
    ]) {
      expect({ group, stems: new Set(group.map(stem)).size }).toEqual({ group, stems: 1 });
    }
  });

  it('merges the derivations operators and agents use for the same thing', () => {
    for (const group of [
      ['deploy', 'deployment', 'deployed', 'deploys'],
      ['assign', 'assignment'],
      ['rotate', 'rotation'],
      ['provision', 'provisioning'],
      ['share', 'sharing'],
      ['available', 'availability'],
      ['approve', 'approval'],
    ]) {
      expect({ group, stems: new Set(group.map(stem)).size }).toEqual({ group, stems: 1 });
    }
  });

  it('gives the textbook Porter stems', () => {
    const cases: [string, string][] = [
      ['caresses', 'caress'],
      ['ponies', 'poni'],
      ['cats', 'cat'],
      ['agreed', 'agre'],
      ['plastered', 'plaster'],
      ['motoring', 'motor'],
      ['sing', 'sing'],
      ['conflated', 'conflat'],
      ['hopping', 'hop'],
      ['falling', 'fall'],
      ['filing', 'file'],
      ['happy', 'happi'],
      ['relational', 'relat'],
      ['conditional', 'condit'],
      ['digitizer', 'digit'],
      ['operator', 'oper'],
      ['hopefulness', 'hope'],
      ['formaliti', 'formal'],
      ['triplicate', 'triplic'],
      ['electrical', 'electr'],
      ['goodness', 'good'],
      ['allowance', 'allow'],
      ['adjustable', 'adjust'],
      ['adoption', 'adopt'],
      ['effective', 'effect'],
      ['probate', 'probat'],
      ['rate', 'rate'],
      ['controll', 'control'],
      ['generalization', 'gener'],
      ['billing', 'bill'],
    ];
    for (const [word, expected] of cases) expect({ word, stem: stem(word) }).toEqual({ word, stem: expected });
  });

  it('keeps short words, and customer apart from custom', () => {
    expect(stem('is')).toBe('is');
    expect(stem('id')).toBe('id');
    expect(stem('customer')).not.toBe(stem('custom'));
    expect(stem('customers')).toBe(stem('customer'));
  });

  it('inflectionStem only strips inflections', () => {
    expect(inflectionStem('creating')).toBe(inflectionStem('create'));
    expect(inflectionStem('settings')).toBe('setting');
    expect(inflectionStem('status')).toBe('status');
    expect(inflectionStem('deployment')).toBe('deployment');
  });
});

describe('verb concepts', () => {
  it('maps read, write, delete, export and send synonyms onto one term each', () => {
    expect(['get', 'fetch', 'retrieve', 'lookup', 'search', 'list', 'query', 'view', 'fetching', 'lists'].map(canonical)).toEqual(Array(10).fill('read'));
    expect(['create', 'update', 'insert', 'edit', 'modify', 'write', 'save', 'patch', 'post', 'upload'].map(canonical)).toEqual(Array(10).fill('write'));
    expect(['delete', 'remove', 'drop', 'erase', 'cancel', 'revoke', 'cancelled'].map(canonical)).toEqual(Array(7).fill('delete'));
    expect(['export', 'download', 'dump', 'render'].map(canonical)).toEqual(Array(4).fill('export'));
    expect(['send', 'reply', 'forward', 'notify'].map(canonical)).toEqual(Array(4).fill('send'));
  });

  it('maps narrower API verb synonyms onto one term', () => {
    expect(['deactivate', 'disable', 'suspend', 'offboard', 'deprovision'].map(canonical)).toEqual(Array(5).fill('deactivate'));
    expect(['execute', 'run'].map(canonical)).toEqual(['run', 'run']);
    expect(['revert', 'rollback'].map(canonical)).toEqual(['rollback', 'rollback']);
  });

  it('stems other words', () => {
    expect(canonical('invoices')).toBe('invoic');
    expect(canonical('settings')).toBe('set');
    expect(canonical('settings')).not.toBe('write');
  });

  it('knows specific action verbs apart from nouns', () => {
    for (const verb of ['merge', 'reset', 'reject', 'scale', 'rotate', 'deploy', 'approve', 'share', 'read', 'delete', 'deactivate'])
      expect({ verb, known: ACTION_VERBS.has(canonical(verb)) }).toEqual({ verb, known: true });
    for (const word of ['invoice', 'order', 'comment', 'request', 'report', 'run', 'trigger'])
      expect({ word, known: ACTION_VERBS.has(canonical(word)) }).toEqual({ word, known: false });
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
    expect(tokenize('list_repos')).toEqual(['read', 'repositori']);
    expect(tokenize('request_pto')).toEqual(['request', 'time', 'off']);
    expect(tokenize('get_user_perms')).toEqual(['read', 'user', 'permiss']);
  });

  it('keeps "list" a noun in prose and a verb in identifiers', () => {
    expect(tokenize('list_contacts')).toEqual(['read', 'contact']);
    expect(tokenize('Export the contact list', { prose: true })).toEqual(['export', 'contact', 'list']);
  });

  it('reads phrasal verbs as one verb, and a lone "look" as a noun', () => {
    expect(tokenize('lookUpCustomer')).toEqual(['read', 'customer']);
    expect(tokenize('Look for the invoice', { prose: true })).toEqual(['read', 'invoic']);
    expect(tokenize('looker.run_look')).toEqual(['looker', 'run', 'look']);
    expect(tokenize('roll back the release')).toEqual(['rollback', 'releas']);
  });

  it('drops structural API words', () => {
    expect(tokenize('hubspot-batch-update-objects')).toEqual(['hubspot', 'write']);
  });

  it('can drop tokens with digits (ids in argument values)', () => {
    expect(tokenize('cus_Nf82kd0 refund', { dropDigits: true })).toEqual(['cu', 'refund']);
    expect(tokenize('order 1234 shipped', { dropDigits: true })).toEqual(['order', 'ship']);
  });

  it('drops action verbs from field names and values when asked (they name data, not the action)', () => {
    expect(tokenize('created_at sendEmail list_id', { concepts: false })).toEqual(['email', 'id']);
    expect(tokenize('look up the disabled accounts', { concepts: false, prose: true })).toEqual(['deactivate', 'account']);
  });

  it('does not trip over words that are Object.prototype members', () => {
    expect(tokenize('constructor toString hasOwnProperty __proto__ valueOf')).toEqual(['constructor', 'string', 'properti', 'proto', 'valu']);
  });

  it('gives the same terms on repeated calls (the word cache is transparent)', () => {
    const text = 'Search customer invoices and DEPLOYMENTS';
    expect(tokenize(text)).toEqual(tokenize(text));
    expect(tokenize(text)).toEqual(['read', 'customer', 'invoic', 'deploy']);
  });
});

describe('affirmativeSentences', () => {
  it('drops sentences that state an exclusion', () => {
    const d = 'Edit fields on a contact. Deleting records is not covered. No DDL or DML; read-only queries.';
    expect(affirmativeSentences(d)).toBe('Edit fields on a contact. read-only queries.');
    expect(affirmativeSentences("Read tickets. Agents can't close them. Merging is out of scope.")).toBe('Read tickets.');
  });

  it('drops notes about the approval process, but keeps approvals as the purpose', () => {
    expect(affirmativeSentences('Issue a refund in Stripe. Needs approval from finance.')).toBe('Issue a refund in Stripe.');
    expect(affirmativeSentences('Bulk export of contacts. Requires approval.')).toBe('Bulk export of contacts.');
    expect(affirmativeSentences('Read salaries. Restricted to HR; approval required.')).toBe('Read salaries. Restricted to HR;');
    expect(affirmativeSentences('Approve or reject expense reports.')).toBe('Approve or reject expense reports.');
  });
});

describe('splitExclusions', () => {
  it('keeps what a sentence covers and sets aside what it excludes, by where the cue stands', () => {
    expect(splitExclusions('Look at the structure of a database without reading its rows: list tables and columns.')).toEqual([
      { covered: 'Look at the structure of a database ', excluded: ' reading its rows:' },
      { covered: 'list tables and columns.', excluded: '' },
    ]);
    expect(splitExclusions('Pull request diffs are under code.pull_request_review; changing files is not covered.')).toEqual([
      { covered: '', excluded: 'Pull request diffs are ' },
      { covered: '', excluded: 'changing files ' },
    ]);
    expect(affirmativeSentences('Rotate a secret. Reading a secret is infra.secret_read.')).toBe('Rotate a secret.');
  });

  it('gives the excluded words as terms, but not an exclusion that carves out what is covered', () => {
    expect(exclusionTerms('Restart a pod. Merging is not covered. Deleting anything other than pods is not covered.')).toEqual([
      tokenize('Merging', { prose: true }),
    ]);
    expect(exclusionTerms('Rotate a secret. Reading a secret is infra.secret_read.')).toEqual([tokenize('Reading a secret', { prose: true })]);
    expect(exclusionTerms('Approve refunds. Needs approval from finance.')).toEqual([]);
  });
});
