import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCUMENT, renderConfigTable, withTable } from './config-table';

describe('docs/configuration.md', () => {
  const { table, undocumented } = renderConfigTable();

  it('holds the table the config classes generate (else: npm run docs:config)', () => {
    const document = readFileSync(DOCUMENT, 'utf8');
    expect(withTable(document, table)).toBe(document);
  });

  it('documents every setting with a doc comment', () => {
    expect(undocumented).toEqual([]);
  });

  it('lists every variable .env.example offers (compose reads them), except the image tag', () => {
    const example = readFileSync(join(__dirname, '../../.env.example'), 'utf8');
    const offered = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]).filter((name) => name !== 'IGW_TAG');
    const listed = new Set([...table.matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((m) => m[1]));
    expect(offered.filter((name) => !listed.has(name))).toEqual([]);
  });
});
