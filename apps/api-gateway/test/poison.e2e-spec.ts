import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describePoison, startDistributedSystem } from '@igw/testing';

describePoison('distributed', async () => {
  // Where the decision proxy looks for a journal left by a version before 0.7.
  const journalDir = join(mkdtempSync(join(tmpdir(), 'igw-legacy-journal-')), 'replica-0');
  const sys = await startDistributedSystem({ env: { DECISION_JOURNAL_DIR: journalDir } });
  return Object.assign(sys, { journalDir });
});
