// Lints code snippets as if they were files at given paths, with the repo's ESLint config.
// Input (stdin): [{path, code}]; output (stdout): [[ "ruleId: message", ... ], ...].
// Used by boundaries.spec.ts (Jest cannot load the ESM config in its VM).
import { ESLint } from 'eslint';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cases = JSON.parse(
  await new Promise((r) => {
    let s = '';
    process.stdin.on('data', (d) => (s += d)).on('end', () => r(s));
  }),
);
const eslint = new ESLint({ cwd: root });
const out = [];
for (const { path, code } of cases) {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  out.push(result.messages.map((m) => `${m.ruleId}: ${m.message}`));
}
process.stdout.write(JSON.stringify(out));
