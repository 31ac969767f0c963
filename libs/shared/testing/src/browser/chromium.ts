import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { REPO_ROOT } from '../e2e/app-process';

/** Debian's `chromium` package (installed by .ci/run with apt-get), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`no Chromium found (tried ${candidates.join(', ')}): install Debian's chromium package or set CHROMIUM_PATH`);
  return found;
}

/** A headless Chromium for browser tests; no browser is downloaded. */
export function launchChromium(): Promise<Browser> {
  // --no-sandbox: CI runs as root in a container, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** Where browser tests leave screenshots for a person to look at (tmp/ is not committed). */
export function screenshotDir(suite: string): string {
  const dir = join(process.env.TEST_OUTPUT_DIR ?? join(REPO_ROOT, 'tmp/test-output'), suite);
  mkdirSync(dir, { recursive: true });
  return dir;
}
