import { Client as PgClient } from 'pg';
import { Kafka, logLevel } from 'kafkajs';
import { ALL_TOPICS } from '@igw/contracts';
import { createTestDatabase, runAppToExit, testKafkaBrokers } from '@igw/testing';

const SCHEMAS = ['api_gateway', 'policy_registry', 'approvals', 'intent_evaluator', 'mandate_issuer', 'decision_proxy', 'webhook_dispatcher'];

/** The chart's hook Jobs as the built apps run them: migrate every schema, provision every topic. */
describe('provisioning jobs (distributed)', () => {
  it('migrate applies every service schema to a fresh database, then finds nothing left to do', async () => {
    const db = await createTestDatabase();
    try {
      const first = await runAppToExit('migrate', { DATABASE_URL: db.url, LOG_LEVEL: 'info' });
      expect({ code: first.code, output: first.output }).toMatchObject({ code: 0 });
      const pg = new PgClient({ connectionString: db.url });
      await pg.connect();
      try {
        const { rows } = await pg.query<{ schema: string; n: string }>(
          `SELECT table_schema AS schema, count(*)::text AS n FROM information_schema.tables WHERE table_name = '_prisma_migrations' GROUP BY table_schema`,
        );
        const migrated = Object.fromEntries(rows.map((r) => [r.schema, Number(r.n)]));
        for (const schema of SCHEMAS) expect({ schema, tables: migrated[schema] }).toEqual({ schema, tables: 1 });
      } finally {
        await pg.end();
      }
      const again = await runAppToExit('migrate', { DATABASE_URL: db.url, LOG_LEVEL: 'info' });
      expect(again.code).toBe(0);
      expect(again.output.match(/schema up to date/g)?.length).toBe(SCHEMAS.length);
    } finally {
      await db.drop();
    }
  });

  it('migrate fails with one line when the database cannot be reached or is not set', async () => {
    const unreachable = await runAppToExit('migrate', { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none' });
    expect(unreachable.code).toBe(78);
    expect(unreachable.output.trim().split('\n')).toHaveLength(1);
    expect(unreachable.output).toMatch(/^migrate: cannot migrate schema api_gateway/);
    const unset = await runAppToExit('migrate', {});
    expect(unset.code).toBe(78);
    expect(unset.output).toMatch(/DATABASE_URL/);
  });

  it('kafka-topics leaves every event topic on the brokers', async () => {
    const run = await runAppToExit('kafka-topics', {
      KAFKA_BROKERS: testKafkaBrokers(),
      KAFKA_TOPIC_PARTITIONS: '2',
      KAFKA_TOPIC_REPLICATION_FACTOR: '1',
      LOG_LEVEL: 'info',
    });
    expect({ code: run.code, output: run.output }).toMatchObject({ code: 0 });
    expect(run.output).toMatch(/topics ready/);
    const admin = new Kafka({ brokers: [testKafkaBrokers()], clientId: 'provisioning-test', logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const topics = new Set(await admin.listTopics());
      expect(ALL_TOPICS.filter((t) => !topics.has(t))).toEqual([]);
    } finally {
      await admin.disconnect();
    }
  });

  it('kafka-topics refuses a bad layout setting with one line', async () => {
    const bad = await runAppToExit('kafka-topics', { KAFKA_BROKERS: testKafkaBrokers(), KAFKA_TOPIC_PARTITIONS: 'many' });
    expect(bad.code).toBe(78);
    expect(bad.output).toMatch(/KAFKA_TOPIC_PARTITIONS must be an integer/);
  });
});
