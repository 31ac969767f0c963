// Generates every service's Prisma client (postinstall). Prisma's CLI would try to download its
// native schema engine, which `generate` does not need: pointing it at /bin/false keeps
// generation offline, and any migrate command run this way fails loudly instead of pretending.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const prismaBin = join(root, 'node_modules/prisma/build/index.js');
const schemas = readdirSync(join(root, 'libs'))
  .map((lib) => join(root, 'libs', lib, 'prisma/schema.prisma'))
  .filter(existsSync);
for (const schema of schemas) {
  execFileSync(process.execPath, [prismaBin, 'generate', '--schema', schema], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/bin/false',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    },
  });
}
console.log(`prisma: generated ${schemas.length} client(s)`);
