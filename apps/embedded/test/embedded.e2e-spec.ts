import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, freePort, startApp, startEmbeddedSystem } from '@igw/testing';

describe('embedded mode', () => {
  it('needs no settings: first start creates org default and prints its admin key once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'igw-first-'));
    try {
      const port = await freePort();
      const first = await startApp('embedded', { DATA_DIR: dataDir }, { port, timeoutMs: 90_000 });
      const key = /(igw_[0-9A-Za-z]{38})/.exec(first.output())?.[1];
      expect(key).toBeDefined();
      const health = await client(first.url, key).get('/v1/health');
      expect(health.body).toMatchObject({ status: 'ok', mode: 'embedded' });
      await first.stop();

      const second = await startApp('embedded', { DATA_DIR: dataDir }, { port, timeoutMs: 90_000 });
      expect(second.output()).not.toMatch(/igw_[0-9A-Za-z]{38}/);
      expect((await client(second.url, key).get('/v1/intentions')).status).toBe(200);
      // The key was printed once by design, and never logged as a log line.
      const logLines = (first.output() + second.output()).split('\n').filter((l) => l.startsWith('{'));
      for (const l of logLines) expect(l).not.toContain(key!);
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('keeps its data across restarts', async () => {
    const sys = await startEmbeddedSystem();
    try {
      const admin = client(sys.url, sys.adminKey);
      const created = await admin.post('/v1/intentions', { label: 'kept.across.restarts', intent_class: 'reporting' });
      await admin.post(`/v1/intentions/${created.body.id}/publish`);
      await sys.restart();
      const after = await client(sys.url, sys.adminKey).get(`/v1/intentions/${created.body.id}`);
      expect(after.status).toBe(200);
      expect(after.body.status).toBe('active');
    } finally {
      await sys.stop();
    }
  }, 180_000);
});
