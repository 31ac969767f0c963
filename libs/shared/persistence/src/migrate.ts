import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceDatabase } from './database';

/**
 * Applies `prisma/migrations/<name>/migration.sql` in name order inside the service's schema and
 * records them in `_prisma_migrations`, the table `prisma migrate deploy` uses, so the native
 * engine can take over wherever it exists. Prisma's own migrate needs a schema engine binary
 * this machine cannot download (see docs/decisions/0002-migrations.md).
 */
export async function migrate(db: ServiceDatabase, migrationsDir: string): Promise<string[]> {
  const schema = db.schema;
  if (!existsSync(migrationsDir)) throw new Error(`no migrations at ${migrationsDir}`);
  // The tables every service has (dead letters…) first, then the service's own; only the latter are reported.
  const shared = migrationNames(SHARED_MIGRATIONS);
  const names = migrationNames(migrationsDir);
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    // Replicas starting together: one migrates, the others wait and then find nothing to do.
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`igw-migrate-${schema}`]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await tx.query(`SET LOCAL search_path TO "${schema}"`);
    await tx.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const done = new Set(
      (await tx.query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`)).map(
        (r) => r.migration_name,
      ),
    );
    for (const [dir, name] of [...shared.map((n) => [SHARED_MIGRATIONS, n] as const), ...names.map((n) => [migrationsDir, n] as const)]) {
      if (done.has(name)) continue;
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query(`INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`, [
        randomUUID(),
        createHash('sha256').update(sql).digest('hex'),
        name,
      ]);
      if (dir === migrationsDir) applied.push(name);
    }
  });
  return applied;
}

/**
 * Infrastructure tables every service schema has, defined once (`libs/shared/persistence/migrations`,
 * copied next to dist by the build). Their names start with `igw_` so they never collide with a
 * service's timestamped migrations.
 */
export const SHARED_MIGRATIONS = join(__dirname, '../migrations');

function migrationNames(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort();
}

/** Splits on semicolons that end a line outside dollar-quoted bodies (enough for migration files). */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let inDollar = false;
  for (const line of sql.split('\n')) {
    if (line.trim().startsWith('--') && !inDollar) continue;
    current += line + '\n';
    const dollars = line.match(/\$\$/g)?.length ?? 0;
    if (dollars % 2 === 1) inDollar = !inDollar;
    if (!inDollar && line.trimEnd().endsWith(';')) {
      if (current.trim()) out.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
