import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { freePorts, REPO_ROOT, runAppToExit } from '@igw/testing';

/**
 * The defaults a newcomer starts from must pass the apps' own start-up checks: every app of
 * docker-compose.yml with nothing set in the shell or a .env file, and every app of the Helm chart
 * with its default values and a Secret holding the documented keys. Each app is started as built;
 * a configuration it refuses ends it at once with exit 78, one that it accepts keeps it running
 * (waiting for its database) until the test stops it.
 */
const ACCEPTED = 'accepted';
const REFUSED = 'refused';

/** `${VAR:-default}` with nothing set → default; `${VAR}` → ''. */
const substitute = (v: string) => v.replace(/\$\{[A-Z0-9_]+(?::-([^}]*))?\}/g, (_m, d: string | undefined) => d ?? '');
const appOf = (command: unknown) => (Array.isArray(command) ? /dist\/apps\/([^/]+)\/src\/main\.js/.exec(command.join(' '))?.[1] : undefined);

async function startsWith(app: string, env: Record<string, string>): Promise<{ app: string; code: string; output: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'igw-defaults-'));
  try {
    // Ports and the data directory of the machine running the test, everything else as given.
    const [port] = await freePorts(1);
    const run = await runAppToExit(app, { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir }, 4000);
    // A refused setting ends the app at once with exit 78 and one `configuration error` line; any
    // later failure (no database here) happens after the settings were accepted.
    const refused = run.code === 78 && /configuration error/.test(run.output);
    return { app, code: refused ? REFUSED : ACCEPTED, output: run.output.split('\n').slice(0, 3).join('\n') };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('configuration defaults pass the apps’ own checks', () => {
  it('docker compose: every app starts with the file’s defaults and no .env', async () => {
    const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, { command?: string[]; environment?: Record<string, string | null> }>;
    };
    const apps = Object.values(compose.services).filter((s) => appOf(s.command));
    expect(apps.map((s) => appOf(s.command)).sort()).toEqual(
      ['api-gateway', 'approvals', 'decision-proxy', 'embedded', 'intent-evaluator', 'mandate-issuer', 'policy-registry', 'webhook-dispatcher'].sort(),
    );
    for (const s of apps) {
      const env = Object.fromEntries(
        Object.entries(s.environment ?? {})
          .filter((e): e is [string, string] => e[1] !== null && e[1] !== undefined)
          .map(([k, v]) => [k, substitute(String(v))]),
      );
      const res = await startsWith(appOf(s.command) as string, env);
      expect(res).toMatchObject({ code: ACCEPTED });
    }
  }, 120_000);

  it('helm: every app starts with the chart’s defaults and the documented Secret', async () => {
    const rendered = spawnSync(process.execPath, [join(REPO_ROOT, 'tools/helm/helm.mjs'), 'template', '--set', 'jobs.helmHooks=false'], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    expect(rendered.status).toBe(0);
    // deploy/README.md's Secret, with values of the documented shapes.
    const secret = {
      PLATFORM_ADMIN_KEY: 'p'.repeat(44),
      INTERNAL_AUTH_TOKEN: 'i'.repeat(64),
      DATABASE_URL: 'postgresql://igw:secret@127.0.0.1:1/igw?sslmode=require',
      REDIS_URL: 'rediss://:secret@127.0.0.1:1',
      GRANT_SIGNING_KEY: '{"crv":"Ed25519","d":"25NyeRfjkoTYViO-uu8xzD6HBbaveLapOBp2YO3pkW0","x":"lTtbhXJ9H0QLr_FeuDhGum7cspU-uBLd90Cl8pPJ2Q8","kty":"OKP"}',
      MANDATE_KEK: Buffer.alloc(32, 1).toString('base64'),
      WEBHOOK_KEK: Buffer.alloc(32, 2).toString('base64'),
      MCP_UPSTREAMS_KEK: Buffer.alloc(32, 3).toString('base64'),
    };
    const workloads = parseAllDocuments(rendered.stdout)
      .map((d) => d.toJSON())
      .filter((m) => m?.kind === 'Deployment' || m?.kind === 'Job');
    expect(workloads.length).toBe(9);
    for (const w of workloads) {
      const c = w.spec.template.spec.containers[0];
      const app = appOf(c.command) as string;
      const env = { ...secret, ...Object.fromEntries((c.env as { name: string; value: string }[]).map((e) => [e.name, e.value])) };
      const res = await startsWith(app, env);
      // The Jobs run to their end: they may fail to reach the database, never refuse the settings.
      expect(res).toMatchObject({ app, code: ACCEPTED });
    }
  }, 180_000);

  it('refuses what the compose file used to default to (a platform key under 32 characters), in one line', async () => {
    const res = await startsWith('embedded', { PLATFORM_ADMIN_KEY: 'dev-only-platform-admin-key' });
    expect(res.code).toBe(REFUSED);
    expect(res.output).toMatch(/PLATFORM_ADMIN_KEY must be at least 32 characters/);
  });
});
