import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { databaseReady, type ServiceDatabase } from './database';

/**
 * The one way a service opens its generated Prisma client: on the service's own database, once
 * that is up (PGlite starts asynchronously; its Prisma adapter exists only then).
 */
export async function openPrismaClient<C>(db: ServiceDatabase, Client: new (options: { adapter: SqlDriverAdapterFactory }) => C): Promise<C> {
  await databaseReady(db);
  return new Client({ adapter: db.prismaAdapter() });
}
