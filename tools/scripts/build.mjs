// Compiles apps/ and libs/ to dist/ with swc (decorator metadata included), rewriting the
// @igw/* path aliases to relative requires so `node dist/apps/<app>/main.js` needs no loader.
// Incremental: a file is recompiled only when its source is newer than its output.
import { transformFile } from '@swc/core';
import { readFileSync, mkdirSync, writeFileSync, statSync, readdirSync, existsSync, copyFileSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'dist');
const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8'));
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;
const isTest = (f) => /\.(spec|int-spec|e2e-spec|fixture)\.ts$/.test(f) || f.includes('/test/');

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* walk(p);
    } else yield p;
  }
}

const sources = [];
for (const top of ['apps', 'libs']) {
  for (const f of walk(join(root, top))) {
    if (f.endsWith('.ts') && !f.endsWith('.d.ts') && !isTest(f)) sources.push(f);
    // Prisma's generated client ships wasm and .node helpers next to its .ts files.
    else if (/\.(wasm|json|sql|prisma)$/.test(f) && !f.includes('/test/')) {
      const dest = join(out, relative(root, f));
      mkdirSync(dirname(dest), { recursive: true });
      copyFileSync(f, dest);
    }
  }
}

const options = {
  ...swcrc,
  jsc: { ...swcrc.jsc, baseUrl: root, paths: compilerOptions.paths },
};

let compiled = 0;
await Promise.all(
  sources.map(async (src) => {
    const dest = join(out, relative(root, src)).replace(/\.ts$/, '.js');
    if (existsSync(dest) && statSync(dest).mtimeMs >= statSync(src).mtimeMs) return;
    const { code, map } = await transformFile(src, { ...options, filename: src, sourceFileName: relative(dirname(dest), src) });
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, map ? `${code}\n//# sourceMappingURL=${dest.split('/').pop()}.map` : code);
    if (map) writeFileSync(`${dest}.map`, map);
    compiled++;
  }),
);
if (process.env.BUILD_VERBOSE) console.log(`build: ${compiled} of ${sources.length} files compiled`);

// The console (apps/console): static files as they are, plus the browser builds of its UI stack
// copied from node_modules, so dist/ serves it with no bundler and nothing fetched from elsewhere.
// preact/hooks imports the bare specifier "preact"; browsers need a path, so it is rewritten.
const consoleSrc = join(root, 'apps/console');
const consoleOut = join(out, 'apps/console');
for (const f of walk(consoleSrc)) {
  if (f.endsWith('.ts')) continue; // unit tests and the types they import are not served
  const dest = join(consoleOut, relative(consoleSrc, f));
  mkdirSync(dirname(dest), { recursive: true });
  copyFileSync(f, dest);
}
const vendor = join(consoleOut, 'vendor');
mkdirSync(vendor, { recursive: true });
for (const [from, to, rewrite] of [
  ['preact/dist/preact.module.js', 'preact.module.js'],
  ['preact/hooks/dist/hooks.module.js', 'hooks.module.js', (code) => code.replace(/from\s*"preact"/g, 'from"./preact.module.js"')],
  ['htm/dist/htm.module.js', 'htm.module.js'],
  ['@picocss/pico/css/pico.min.css', 'pico.min.css'],
  // The overview's charts (uPlot: canvas, no dependencies); its ESM build, imported by pages/overview.js.
  ['uplot/dist/uPlot.esm.js', 'uPlot.esm.js'],
  ['uplot/dist/uPlot.min.css', 'uPlot.min.css'],
]) {
  const code = readFileSync(join(root, 'node_modules', from), 'utf8');
  writeFileSync(join(vendor, to), rewrite ? rewrite(code) : code);
}
