import { randomBytes } from 'node:crypto';
import { newId } from '@igw/kernel';
import type { WebhookSecret } from '../domain';

export const SECRET_SEALER = Symbol('SECRET_SEALER');

/** Seals signing secrets at rest (AES-256-GCM under the KEK; `aad` binds a sealed value to its webhook and secret). */
export interface SecretSealer {
  seal(plain: Buffer, aad: string): string;
  open(sealed: string, aad: string): Buffer;
}

const aadOf = (webhookId: string, secretId: string) => `webhook:${webhookId}:${secretId}`;

/** A new Standard Webhooks secret (`whsec_` + base64 of 24 random bytes), and its sealed form. */
export function newSecret(sealer: SecretSealer, webhookId: string): { plain: string; stored: Omit<WebhookSecret, 'createdAt' | 'expiresAt'> } {
  const plain = `whsec_${randomBytes(24).toString('base64')}`;
  const id = newId('whs');
  return { plain, stored: { id, sealed: sealer.seal(Buffer.from(plain), aadOf(webhookId, id)) } };
}

export function openSecret(sealer: SecretSealer, webhookId: string, secret: Pick<WebhookSecret, 'id' | 'sealed'>): string {
  return sealer.open(secret.sealed, aadOf(webhookId, secret.id)).toString();
}
