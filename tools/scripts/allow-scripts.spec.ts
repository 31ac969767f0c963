import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * npm 11 warns about, and npm 12 skips, every dependency install script that package.json's
 * `allowScripts` does not cover. Each package in the lockfile with an install script must be
 * decided there: `true` for those the project relies on, `false` for the rest.
 */
const ROOT = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean | string> };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { name?: string; version?: string; hasInstallScript?: boolean; link?: boolean }>;
};

/** The package name of a lockfile entry (`node_modules/a/node_modules/@s/b` → `@s/b`). */
const nameOf = (path: string, entry: { name?: string }) => entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
const withScripts = Object.entries(lock.packages)
  .filter(([path, entry]) => path.includes('node_modules/') && entry.hasInstallScript)
  .map(([path, entry]) => ({ name: nameOf(path, entry), version: entry.version }));

/** Whether an allowScripts key (`name` or `name@range`) decides this package. */
function decides(key: string, name: string, version?: string): boolean {
  const at = key.lastIndexOf('@');
  if (at <= 0) return key === name;
  return key.slice(0, at) === name && (key.slice(at + 1) === version || key.slice(at + 1) === '*');
}

describe('package.json allowScripts', () => {
  const allow = pkg.allowScripts ?? {};

  it('decides every dependency with an install script in package-lock.json', () => {
    expect(withScripts.length).toBeGreaterThan(0);
    const undecided = withScripts.filter((p) => !Object.keys(allow).some((k) => decides(k, p.name, p.version)));
    expect(undecided).toEqual([]);
  });

  it('allows the scripts the project relies on: the Node.js the npm scripts run on, and Prisma', () => {
    for (const name of ['node', 'prisma', '@prisma/engines']) expect({ name, allowed: allow[name] }).toEqual({ name, allowed: true });
  });

  it('names no package that has no install script (stale entries)', () => {
    expect(Object.keys(allow).filter((k) => !withScripts.some((p) => decides(k, p.name, p.version)))).toEqual([]);
  });
});
