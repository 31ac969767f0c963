import { existsSync } from 'node:fs';
import { Client } from 'pg';
import { startPostgresInstance, type PostgresInstance } from './postgres-instance';

async function query<T extends Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('startPostgresInstance', () => {
  let pg: PostgresInstance | undefined;

  afterAll(async () => {
    await pg?.destroy();
  });

  it('serves queries, refuses connections while stopped, and comes back on the same port with its data', async () => {
    pg = await startPostgresInstance();
    expect(pg.url).toBe(`postgresql://postgres@127.0.0.1:${pg.port}/postgres`);

    const [version] = await query<{ server_version_num: string }>(pg.url, 'SHOW server_version_num');
    expect(Number(version.server_version_num)).toBeGreaterThanOrEqual(150000);
    await query(pg.url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('before stop')");

    await pg.stop();
    await expect(query(pg.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED|connect/);

    await pg.start();
    expect(await query(pg.url, 'SELECT v FROM kept')).toEqual([{ v: 'before stop' }]);
  });

  it('destroy stops the cluster and removes its files', async () => {
    const own = await startPostgresInstance();
    await query(own.url, 'SELECT 1');
    await own.destroy();
    expect(existsSync(own.baseDir)).toBe(false);
    await expect(query(own.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED|connect/);
    await expect(own.start()).rejects.toThrow(/destroyed/);
  });
});
