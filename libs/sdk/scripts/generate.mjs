// Regenerates the SDK's view of the API (`npm run sdk:generate`): builds the apps, boots an
// embedded system on a free port with a throw-away data directory, fetches /v1/openapi.json,
// writes it to libs/sdk/openapi.json, renders TypeScript types from it with openapi-typescript
// into libs/sdk/src/generated/api.ts (Prettier-formatted) and the Markdown reference docs/api-reference.md.
//
//   node libs/sdk/scripts/generate.mjs                 boot a system, write both files
//   node libs/sdk/scripts/generate.mjs --from DOC      write both files from a saved document
//   node libs/sdk/scripts/generate.mjs --print DOC     print the types DOC renders to (tests compare)
//   node libs/sdk/scripts/generate.mjs --types         write only the types, from the checked-in
//                                                      document (postinstall: the types are not
//                                                      checked in, as Prisma's clients are not)
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import * as prettier from 'prettier';

const sdk = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(sdk, '../..');
export const DOCUMENT = join(sdk, 'openapi.json');
export const TYPES = join(sdk, 'src/generated/api.ts');

const HEADER = `/**
 * Generated at install (postinstall) from libs/sdk/openapi.json (the gateway's GET /v1/openapi.json,
 * refreshed by \`npm run sdk:generate\`) with openapi-typescript. Not checked in; do not edit.
 */
`;

/** The document as checked in: 2-space JSON with a final newline. */
export const renderDocument = (doc) => `${JSON.stringify(doc, null, 2)}\n`;

/** The TypeScript types of a document, formatted as the repository formats code. */
export async function renderTypes(doc) {
  const ast = await openapiTS(structuredClone(doc), { alphabetize: false, exportType: false, defaultNonNullable: false });
  const code = `${HEADER}\n${astToString(ast)}`;
  const config = (await prettier.resolveConfig(TYPES)) ?? {};
  return prettier.format(code, { ...config, filepath: TYPES });
}

async function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen({ host: '127.0.0.1', port: 0 }, () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** Boots the built embedded app and returns its OpenAPI document. */
async function fetchFromEmbeddedSystem() {
  execFileSync(process.execPath, [join(root, 'tools/scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'igw-sdk-generate-'));
  const port = await freePort();
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    BOOTSTRAP_ADMIN_KEY: `sdk-generate-${randomBytes(24).toString('base64url')}`,
  };
  const child = spawn(process.execPath, [join(root, 'dist/apps/embedded/src/main.js')], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the embedded system exited with ${child.exitCode}`);
      const res = await fetch(`http://127.0.0.1:${port}/v1/openapi.json`).catch(() => null);
      if (res?.ok) return await res.json();
      if (Date.now() > deadline) throw new Error('the embedded system did not answer within 120 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(args) {
  if (args[0] === '--print') {
    if (!args[1]) throw new Error('--print needs a document path');
    process.stdout.write(await renderTypes(JSON.parse(readFileSync(args[1], 'utf8'))));
    return;
  }
  // A fresh clone has no generated/ folder: it is not checked in.
  mkdirSync(dirname(TYPES), { recursive: true });
  if (args[0] === '--types') {
    writeFileSync(TYPES, await renderTypes(JSON.parse(readFileSync(DOCUMENT, 'utf8'))));
    return;
  }
  const doc = args[0] === '--from' ? JSON.parse(readFileSync(args[1] ?? DOCUMENT, 'utf8')) : await fetchFromEmbeddedSystem();
  writeFileSync(DOCUMENT, renderDocument(doc));
  writeFileSync(TYPES, await renderTypes(doc));
  console.log(`sdk:generate: wrote ${DOCUMENT} and ${TYPES}`);
  // The Markdown API reference is rendered from the same document (npm run docs:api).
  execFileSync(process.execPath, ['-r', '@swc-node/register', join(root, 'tools/docs/api-reference.ts')], { cwd: root, stdio: 'inherit' });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(`sdk:generate: ${err?.message ?? err}`);
    process.exit(1);
  });
}
