import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKek } from '@igw/runtime';
import { loadOrCreateEmbeddedKek } from './key-encryption';

// KeyEncryption, parseKek and loadOrCreateEmbeddedKey are tested in @igw/runtime.
describe('loadOrCreateEmbeddedKek', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mandate-kek-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the embedded KEK in DATA_DIR/keys/mandate-kek, so existing data dirs keep their key', () => {
    const kek = loadOrCreateEmbeddedKek(dir);
    expect(kek).toHaveLength(32);
    expect(parseKek(readFileSync(join(dir, 'keys', 'mandate-kek'), 'utf8'))).toEqual(kek);
    expect(loadOrCreateEmbeddedKek(dir)).toEqual(kek);
  });
});
