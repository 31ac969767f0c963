import { Client as PgClient } from 'pg';
import { createTestDatabase, runAppToExit } from '@igw/testing';

/** The chart's purge-calls CronJob as the built app runs it (DESIGN 6.16). */
describe('purge-calls task (distributed)', () => {
  it('deletes the kept calls past CALL_RETENTION_DAYS of every org, evaluated and mandate-path ones, and keeps the rest', async () => {
    const db = await createTestDatabase();
    const pg = new PgClient({ connectionString: db.url });
    try {
      expect((await runAppToExit('migrate', { DATABASE_URL: db.url, LOG_LEVEL: 'warn' })).code).toBe(0);
      await pg.connect();
      const day = 86_400_000;
      const rows = [
        ['iev_old_a', 'org_a', 9],
        ['iev_old_b', 'org_b', 8],
        ['iev_new_a', 'org_a', 6],
        ['iev_now_b', 'org_b', 0],
      ] as const;
      for (const [id, org, daysAgo] of rows) {
        await pg.query(
          `INSERT INTO intent_evaluator.intent_calls (id, org_id, tool_name, arguments, created_at) VALUES ($1, $2, 'crm.lookup', '{"q":"ada"}', $3)`,
          [id, org, new Date(Date.now() - daysAgo * day - 60_000)],
        );
        await pg.query(
          `INSERT INTO decision_proxy.decision_calls (id, org_id, action, context, created_at) VALUES ($1, $2, '{"surface":"sdk","operation":"crm.read"}', '{"ticket":"T-1"}', $3)`,
          [id.replace('iev_', 'dec_'), org, new Date(Date.now() - daysAgo * day - 60_000)],
        );
      }
      const run = await runAppToExit('purge-calls', { DATABASE_URL: db.url, LOG_LEVEL: 'info', CALL_RETENTION_DAYS: '7' });
      expect({ code: run.code, output: run.output }).toMatchObject({ code: 0 });
      expect(run.output).toMatch(/"purged":2/);
      expect(run.output).toMatch(/"purged_decision_calls":2/);
      const left = await pg.query<{ id: string }>('SELECT id FROM intent_evaluator.intent_calls ORDER BY id');
      expect(left.rows.map((r) => r.id)).toEqual(['iev_new_a', 'iev_now_b']);
      const leftDecisions = await pg.query<{ id: string }>('SELECT id FROM decision_proxy.decision_calls ORDER BY id');
      expect(leftDecisions.rows.map((r) => r.id)).toEqual(['dec_new_a', 'dec_now_b']);
      // 0 days: nothing is kept any more.
      expect((await runAppToExit('purge-calls', { DATABASE_URL: db.url, CALL_RETENTION_DAYS: '0' })).code).toBe(0);
      expect((await pg.query('SELECT id FROM intent_evaluator.intent_calls')).rows).toEqual([]);
      expect((await pg.query('SELECT id FROM decision_proxy.decision_calls')).rows).toEqual([]);
    } finally {
      await pg.end().catch(() => undefined);
      await db.drop();
    }
  });

  it('fails with one line on a bad setting', async () => {
    const bad = await runAppToExit('purge-calls', { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none', CALL_RETENTION_DAYS: 'week' });
    expect(bad.code).toBe(78);
    expect(bad.output.trim().split('\n')).toHaveLength(1);
    expect(bad.output).toMatch(/CALL_RETENTION_DAYS/);
  });
});
