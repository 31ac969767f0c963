import type { KeyObject } from 'node:crypto';
import type { MandateClaims } from '../../domain/mandate';
import type { MandateSigning, OpenedSigningKey, PublicRsaJwk } from '../../application/signing/mandate-signing.port';
import { generateRsaSigningKey, privateKeyFromPkcs8, RSA_BITS, signMandate } from '../jose/rsa-mandate-keys';
import type { KeyEncryption } from './key-encryption';

interface OpenedRsaKey extends OpenedSigningKey {
  readonly privateKey: KeyObject;
}

const keyPurpose = (kid: string) => `signing-key:${kid}`;

/** RSA keys sealed under the KEK, and RS256 signing (jose) with them. */
export class RsaMandateSigning implements MandateSigning {
  constructor(
    private readonly encryption: KeyEncryption,
    private readonly bits = RSA_BITS,
  ) {}

  get kekId(): string {
    return this.encryption.kekId;
  }

  async generate(): Promise<{ kid: string; publicJwk: PublicRsaJwk; privateKeySealed: string }> {
    const key = await generateRsaSigningKey(this.bits);
    return { kid: key.kid, publicJwk: key.publicJwk, privateKeySealed: this.encryption.seal(key.privatePkcs8, keyPurpose(key.kid)) };
  }

  open(kid: string, privateKeySealed: string): OpenedSigningKey {
    const opened: OpenedRsaKey = { kid, privateKey: privateKeyFromPkcs8(this.encryption.open(privateKeySealed, keyPurpose(kid))) };
    return opened;
  }

  sign(claims: MandateClaims, key: OpenedSigningKey): Promise<string> {
    return signMandate({ ...claims }, key as OpenedRsaKey);
  }

  seal(plain: string, purpose: string): string {
    return this.encryption.seal(Buffer.from(plain, 'utf8'), purpose);
  }

  unseal(sealed: string, purpose: string): string {
    return this.encryption.open(sealed, purpose).toString('utf8');
  }
}
