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
    expect(ids).toHaveLength(57);
    for (const id of ids) expect(reference).toContain(`· \`${id}\` · needs`);
  });

  it('says the scope the CallerGuard enforces (from @RequireScope, through x-required-scope)', () => {
    const reference = readFileSync(REFERENCE, 'utf8');
    expect(reference).toContain('`POST /v1/mandate/dispense` · `dispenseMandate` · needs an API key with scope policy_write or admin');
    expect(reference).toContain('`POST /v1/api-keys` · `createApiKey` · needs an API key with scope admin');
    expect(reference).toContain('`POST /v1/intent/evaluate` · `evaluateToolCall` · needs an API key (any scope)');
    expect(reference).toContain('`GET /v1/mandate/jwks` · `getMandateJwks` · needs no key');
    expect(reference).toContain('`POST /v1/orgs` · `createOrg` · needs the platform admin key');
  });
});
