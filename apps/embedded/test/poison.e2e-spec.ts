import { join } from 'node:path';
import { describePoison, startEmbeddedSystem } from '@igw/testing';

describePoison('embedded', async () => {
  const sys = await startEmbeddedSystem();
  return Object.assign(sys, { journalDir: join(sys.dataDir, 'decision-journal') });
});
