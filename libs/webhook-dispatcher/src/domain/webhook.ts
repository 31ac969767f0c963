/** A secret as stored: sealed at rest, with the moment it stops signing (null: until rotated). */
export interface WebhookSecret {
  id: string;
  sealed: string;
  createdAt: Date;
  expiresAt: Date | null;
}

export type WebhookStatus = 'active' | 'disabled';

export interface Webhook {
  id: string;
  orgId: string;
  url: string;
  events: string[];
  description: string | null;
  status: WebhookStatus;
  /** Why it was disabled (e.g. the endpoint answered 410 Gone). */
  disabledReason: string | null;
  secrets: WebhookSecret[];
  createdAt: Date;
  updatedAt: Date;
}

/** DESIGN 6.11: after a rotation the previous secret keeps signing for 24 h. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** The secrets that sign at `now`, newest first. */
export function signingSecrets(webhook: Pick<Webhook, 'secrets'>, now: Date): WebhookSecret[] {
  return webhook.secrets
    .filter((s) => s.expiresAt === null || s.expiresAt.getTime() > now.getTime())
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/**
 * The secrets after a rotation: the new one signs from now on, every secret that still signs
 * keeps signing for at most 24 h more, expired ones are dropped.
 */
export function rotateSecrets(secrets: readonly WebhookSecret[], fresh: Omit<WebhookSecret, 'expiresAt' | 'createdAt'>, now: Date): WebhookSecret[] {
  const until = new Date(now.getTime() + ROTATION_OVERLAP_MS);
  const kept = secrets
    .filter((s) => s.expiresAt === null || s.expiresAt.getTime() > now.getTime())
    .map((s) => ({ ...s, expiresAt: s.expiresAt === null || s.expiresAt > until ? until : s.expiresAt }));
  return [{ ...fresh, createdAt: now, expiresAt: null }, ...kept];
}

/** Whether the webhook wants events of this public type. */
export const subscribes = (webhook: Pick<Webhook, 'events' | 'status'>, type: string): boolean => webhook.status === 'active' && webhook.events.includes(type);
