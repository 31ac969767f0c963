import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { openPostgresDatabase, type ServiceDatabase } from './database';
import { migrate } from './migrate';

const url = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const FIXTURE = join(__dirname, 'testing/migrations');

/** Columns and indexes of the shared tables, as the catalog reports them. */
async function sharedTables(db: ServiceDatabase): Promise<{ columns: string[]; indexes: string[] }> {
  const columns = await db.query<{ c: string }>(
    `SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS c
       FROM information_schema.columns WHERE table_schema = $1 AND table_name IN ('outbox_events', 'processed_events', 'dead_letters')
      ORDER BY table_name, ordinal_position`,
    [db.schema],
  );
  const indexes = await db.query<{ i: string }>(
    `SELECT indexname || ': ' || regexp_replace(indexdef, '"?' || schemaname || '"?\\.', '') AS i FROM pg_indexes
      WHERE schemaname = $1 AND tablename IN ('outbox_events', 'processed_events', 'dead_letters') ORDER BY indexname`,
    [db.schema],
  );
  return { columns: columns.map((r) => r.c.replace(/"?it_migrate_[0-9a-f]+"?\./g, '')), indexes: indexes.map((r) => r.i) };
}

// PostgreSQL here; PGlite cannot load inside Jest's VM, and every embedded e2e start applies the
// same migrations to a fresh PGlite.
describe('migrate: the tables every schema shares', () => {
  const dbs: ServiceDatabase[] = [];
  const open = () => {
    const db = openPostgresDatabase(url, `it_migrate_${randomBytes(4).toString('hex')}`, 2);
    dbs.push(db);
    return db;
  };

  afterAll(async () => {
    for (const db of dbs) {
      await db.query(`DROP SCHEMA IF EXISTS "${db.schema}" CASCADE`);
      await db.close();
    }
  });

  it('gives a fresh schema the outbox, processed-events and dead-letter tables before its own', async () => {
    const db = open();
    expect(await migrate(db, FIXTURE)).toEqual(['0001_effects']);
    const { columns, indexes } = await sharedTables(db);
    expect(columns.filter((c) => c.startsWith('outbox_events.'))).toEqual([
      expect.stringMatching(/^outbox_events\.seq bigint NO nextval/),
      'outbox_events.id text NO ',
      'outbox_events.topic text NO ',
      'outbox_events.key text NO ',
      'outbox_events.envelope jsonb NO ',
      'outbox_events.created_at timestamp with time zone NO now()',
      'outbox_events.published_at timestamp with time zone YES ',
      'outbox_events.attempts integer NO 0',
      'outbox_events.last_error text YES ',
    ]);
    expect(columns.filter((c) => c.startsWith('processed_events.'))).toEqual([
      'processed_events.consumer text NO ',
      'processed_events.event_id text NO ',
      'processed_events.processed_at timestamp with time zone NO now()',
    ]);
    expect(indexes.map((i) => i.split(':')[0])).toEqual([
      'dead_letters_kind_idx',
      'dead_letters_pkey',
      'outbox_events_id_key',
      'outbox_events_pkey',
      'outbox_events_unpublished_idx',
      'processed_events_pkey',
    ]);
    expect(indexes.find((i) => i.startsWith('outbox_events_id_key'))).toMatch(/CREATE UNIQUE INDEX/);
    expect(indexes.find((i) => i.startsWith('outbox_events_unpublished_idx'))).toMatch(/WHERE \(published_at IS NULL\)/);
  });

  it('takes over a schema whose service migration created the same tables (a database migrated before they were shared)', async () => {
    const db = open();
    await migrate(db, FIXTURE);
    const before = await sharedTables(db);
    await db.query(`INSERT INTO "${db.schema}"."outbox_events" ("id", "topic", "key", "envelope") VALUES ('evt_1', 't', 'k', '{}')`);
    // As such a database looks: the tables exist, the shared migration was never recorded.
    await db.query(`DELETE FROM "${db.schema}"."_prisma_migrations" WHERE "migration_name" LIKE 'igw_%'`);

    expect(await migrate(db, FIXTURE)).toEqual([]);
    expect(await sharedTables(db)).toEqual(before);
    expect(await db.query(`SELECT "id" FROM "${db.schema}"."outbox_events"`)).toEqual([{ id: 'evt_1' }]);
    const recorded = await db.query<{ migration_name: string }>(`SELECT "migration_name" FROM "${db.schema}"."_prisma_migrations" ORDER BY "migration_name"`);
    expect(recorded.map((r) => r.migration_name)).toEqual(['0001_effects', 'igw_0000_outbox', 'igw_0001_dead_letters']);
  });
});
