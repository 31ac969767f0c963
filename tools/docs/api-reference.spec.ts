import { readFileSync } from 'node:fs';
import { REFERENCE, readOpenApi, renderApiReference } from './api-reference';

describe('docs/api-reference.md', () => {
  it('is what the checked-in OpenAPI document renders to (else: npm run docs:api)', () => {
    expect(readFileSync(REFERENCE, 'utf8')).toBe(renderApiReference(readOpenApi()));
  });

  it('has a section for every operation of the document', () => {
    const doc = readOpenApi();
    const reference = readFileSync(REFERENCE, 'utf8');
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids).toHaveLength(47);
    for (const id of ids) expect(reference).toContain(`· \`${id}\` · needs`);
  });
});
