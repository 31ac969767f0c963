// ESLint with Nx module boundaries, then Prettier's check. The boundaries rule reads Nx's project graph and silently
// skips itself when none is cached, so the graph is computed first, and a skip is a failure.
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_SKIP_NX_CACHE: 'true' };
execFileSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
const res = spawnSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), '--max-warnings=0', 'apps', 'libs', 'tools'], {
  cwd: root,
  env,
  encoding: 'utf8',
});
const out = `${res.stdout ?? ''}${res.stderr ?? ''}`;
process.stdout.write(out);
if (/No cached ProjectGraph is available/.test(out)) {
  console.error('lint: the module-boundaries rule did not run (no Nx project graph)');
  process.exit(1);
}
if (res.status !== 0) process.exit(res.status ?? 1);
// Formatting is part of lint: unformatted code fails `npm test` (fix with `npm run format`).
const fmt = spawnSync(process.execPath, [join(root, 'node_modules/prettier/bin/prettier.cjs'), '--check', '--log-level=warn', '.'], {
  cwd: root,
  env,
  encoding: 'utf8',
});
process.stdout.write(`${fmt.stdout ?? ''}${fmt.stderr ?? ''}`);
if (fmt.status !== 0) {
  console.error('lint: files above are not formatted (npm run format)');
  process.exit(fmt.status ?? 1);
}
// The OpenAPI document as checked in (an e2e test keeps it equal to the served one), by Redocly's
// linter with redocly.yaml: no error and no warning.
const api = spawnSync(process.execPath, [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--max-problems=1000', 'libs/sdk/openapi.json'], {
  cwd: root,
  env: { ...env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  encoding: 'utf8',
});
const apiOut = `${api.stdout ?? ''}${api.stderr ?? ''}`;
if (api.status !== 0 || /warning/i.test(apiOut)) {
  process.stdout.write(apiOut);
  console.error('lint: the OpenAPI document has problems (redocly.yaml; regenerate with npm run sdk:generate)');
  process.exit(api.status || 1);
}
console.log('lint: ok');
