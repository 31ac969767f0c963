// docs/api-reference.md, rendered from the checked-in OpenAPI document (libs/sdk/openapi.json, which
// an e2e test keeps equal to the served one): every operation with its id, what it needs, what it
// does, an example request and every answer. `npm run docs:api` rewrites it; a unit test fails when
// it is stale.
//
//   node -r @swc-node/register tools/docs/api-reference.ts       rewrite docs/api-reference.md
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
export const OPENAPI = join(ROOT, 'libs/sdk/openapi.json');
export const REFERENCE = join(ROOT, 'docs/api-reference.md');

interface Media {
  schema?: { $ref?: string };
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  'x-required-scope'?: string | null;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: { enum?: unknown[]; default?: unknown } }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
}
interface Document {
  info: { title: string; version: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const schemaName = (m?: Media) => m?.schema?.$ref?.split('/').pop();
const firstExample = (m?: Media): { label?: string; value: unknown } | undefined => {
  if (!m) return undefined;
  if (m.example !== undefined) return { value: m.example };
  const [name, first] = Object.entries(m.examples ?? {})[0] ?? [];
  return first ? { label: first.summary ?? name, value: first.value } : undefined;
};
const json = (value: unknown) => ['```json', JSON.stringify(value, null, 2), '```'].join('\n');
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

function auth(op: Operation): string {
  const scheme = Object.keys(op.security?.[0] ?? {})[0];
  if (!scheme) return 'no key';
  if (scheme === 'platformAdminKey') return 'the platform admin key';
  const scope = op['x-required-scope'];
  if (scope === 'policy_write') return 'an API key with scope policy_write or admin';
  return scope === 'admin' ? 'an API key with scope admin' : 'an API key (any scope)';
}

function renderOperation(method: string, path: string, op: Operation): string {
  const lines = [
    `### ${op.summary.replace(/\.$/, '')}`,
    '',
    `\`${method.toUpperCase()} ${path}\` · \`${op.operationId}\` · needs ${auth(op)}`,
    '',
    op.description,
    '',
  ];
  const params = (op.parameters ?? []).filter((p) => p.in !== 'header' || p.name.toLowerCase() !== 'authorization');
  if (params.length > 0) {
    lines.push('| Parameter | In | |', '|---|---|---|');
    for (const p of params) {
      const allowed = p.schema?.enum ? `one of ${p.schema.enum.map((v) => `\`${String(v)}\``).join(', ')}` : '';
      const fallback = p.schema?.default !== undefined ? `default \`${String(p.schema.default)}\`` : '';
      const text = [p.required ? 'required' : '', p.description ?? '', allowed, fallback].filter(Boolean).join('; ');
      lines.push(`| \`${p.name}\` | ${p.in} | ${oneLine(text)} |`);
    }
    lines.push('');
  }
  const body = op.requestBody?.content['application/json'];
  if (body) {
    const example = firstExample(body);
    lines.push(`Request body: \`${schemaName(body) ?? 'object'}\`${example?.label ? ` (example: ${example.label})` : ''}`, '');
    if (example) lines.push(json(example.value), '');
  }
  lines.push('| Status | Answer |', '|---|---|');
  for (const [status, answer] of Object.entries(op.responses)) {
    const name = schemaName(answer.content?.['application/json']);
    lines.push(`| ${status} | ${oneLine(answer.description)}${name && name !== 'ErrorDto' ? ` (\`${name}\`)` : ''} |`);
  }
  const ok = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
  const answer = firstExample(ok?.[1].content?.['application/json']);
  if (answer) lines.push('', `Example answer (${ok?.[0]}${answer.label ? `, ${answer.label}` : ''}):`, '', json(answer.value));
  return lines.join('\n');
}

export function renderApiReference(doc: Document): string {
  const out = [
    `# ${doc.info.title} API reference (v${doc.info.version})`,
    '',
    '<!-- Generated from libs/sdk/openapi.json by npm run docs:api; do not edit. -->',
    '',
    doc.info.description,
    '',
    'The machine-readable reference is the OpenAPI document: served at `/v1/openapi.json` (and browsable at `/docs`), checked in as [../libs/sdk/openapi.json](../libs/sdk/openapi.json). Every answer listed below carries `{code, message}` when it is an error.',
    '',
    '## Contents',
    '',
  ];
  const byTag = doc.tags.map((tag) => ({
    tag,
    ops: Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => (op.tags ?? [])[0] === tag.name)
        .map(([method, op]) => ({ method, path, op })),
    ),
  }));
  for (const { tag, ops } of byTag) out.push(`- **${tag.name}**: ${ops.map(({ op }) => `\`${op.operationId}\``).join(', ')}`);
  for (const { tag, ops } of byTag) {
    out.push('', `## ${tag.name}`, '', tag.description);
    for (const { method, path, op } of ops) out.push('', renderOperation(method, path, op));
  }
  return `${out.join('\n')}\n`;
}

export const readOpenApi = (): Document => JSON.parse(readFileSync(OPENAPI, 'utf8')) as Document;

if (require.main === module) {
  writeFileSync(REFERENCE, renderApiReference(readOpenApi()));
  console.log(`api-reference: wrote ${REFERENCE}`);
}
