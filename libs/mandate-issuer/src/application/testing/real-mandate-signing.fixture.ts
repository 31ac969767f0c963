import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
// Signing and sealing are the real crypto edge, so credentials are checked with jose and sealed
// handles are real ciphertexts:
// eslint-disable-next-line no-restricted-imports
import { KeyEncryption } from '../../adapters/crypto/key-encryption';
// eslint-disable-next-line no-restricted-imports
import { RsaMandateSigning } from '../../adapters/crypto/rsa-mandate-signing';
import type { GeneratedSigningKey } from './mandate-world.fake';

/**
 * The real signer of the mandate use-case specs and one RSA key it generates for the whole spec
 * file (installed in each fresh world as a signer active for a day). Call it at a spec's top
 * level: the key is made before the first test, with Nest's logger silenced, and the spec's
 * timeout is 30 s.
 */
export function realMandateSigning(): { signing: RsaMandateSigning; signingKey: () => GeneratedSigningKey } {
  jest.setTimeout(30_000);
  const signing = new RsaMandateSigning(new KeyEncryption(randomBytes(32)));
  let key: GeneratedSigningKey | undefined;
  beforeAll(async () => {
    for (const level of ['log', 'warn', 'error'] as const) jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
    key = await signing.generate();
  });
  return {
    signing,
    signingKey: () => {
      if (!key) throw new Error('the signing key is generated in beforeAll');
      return key;
    },
  };
}
