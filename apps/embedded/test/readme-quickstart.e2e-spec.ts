import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT, startEmbeddedSystem, type TestSystem } from '@igw/testing';

/**
 * The README's first walk, run as written: the shell block between the quickstart markers, with
 * only IGW and KEY given (as a reader would after `npm start`). Every line it prints is checked, so
 * a README that no longer matches the system fails here.
 */
describe('README quick start (embedded)', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    sys = await startEmbeddedSystem();
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('runs as written, from a second key to the decision list', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const block = /<!-- quickstart:begin -->\s*```sh\n([\s\S]*?)```\s*<!-- quickstart:end -->/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const run = spawnSync('bash', ['-c', `set -eu -o pipefail\n${block}`], {
      encoding: 'utf8',
      // The reader's shell: curl and node on the PATH, nothing else set but what the README asks for.
      env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '/tmp', IGW: sys.url, KEY: sys.adminKey },
      timeout: 60_000,
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout.trim().split('\n')).toEqual(['active', 'approved', 'approved', '1', 'allow', 'approved', 'allow']);
  });
});
