#!/usr/bin/env node
// Validates Kubernetes manifests (a YAML stream on stdin) against the Kubernetes OpenAPI schemas,
// as compiled by the maintained `kubernetes-models` package: field types and formats, required
// fields, enums. Prints one JSON line: {documents, kinds, errors: [{kind, name, message}]}; exits
// 1 when there is an error.
import { parseAllDocuments } from 'yaml';

// Read all of stdin (readFileSync(0) may stop short on a pipe).
let input = '';
for await (const chunk of process.stdin) input += chunk;
const docs = parseAllDocuments(input)
  .map((d) => d.toJSON())
  .filter((d) => d && typeof d === 'object');
const errors = [];
const kinds = {};
for (const doc of docs) {
  const { apiVersion, kind } = doc;
  const name = doc.metadata?.name ?? '?';
  kinds[kind] = (kinds[kind] ?? 0) + 1;
  const path = apiVersion?.includes('/') ? apiVersion : `v1`;
  let Model;
  try {
    Model = (await import(`kubernetes-models/${path}/${kind}`))[kind];
  } catch {
    errors.push({ kind, name, message: `no schema for ${apiVersion} ${kind}` });
    continue;
  }
  try {
    new Model(doc).validate();
  } catch (err) {
    errors.push({ kind, name, message: String(err.message ?? err) });
  }
}
process.stdout.write(`${JSON.stringify({ documents: docs.length, kinds, errors })}\n`);
process.exit(errors.length > 0 ? 1 : 0);
