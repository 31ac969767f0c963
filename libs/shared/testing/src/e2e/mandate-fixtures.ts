import type { Client } from './http-client';

/** The scope the drill cards allow and their mandates ask for. */
export const CRM_SCOPE = { operations: ['crm.**'], resources: ['crm://**'] };

/** An intent card body for audience `crm-api`; `rules` only when given. */
export function cardBody(
  id: string,
  name: string,
  allowedScope: { operations: string[]; resources: string[]; forbidden_operations?: string[] },
  maxTtlSeconds: number,
  rules?: unknown[],
) {
  return { id, name, allowed_scope: allowedScope, audiences: ['crm-api'], max_ttl_seconds: maxTtlSeconds, ...(rules ? { rules } : {}) };
}

/** An intent card over CRM_SCOPE for audience `crm-api`, with `rules` (none by default). */
export function crmCard(id: string, name: string, rules: unknown[] = []) {
  return cardBody(id, name, CRM_SCOPE, 3600, rules);
}

/** Installs a card in the writer's org (201 expected). */
export async function installCard(writer: Client, card: { id: string }): Promise<void> {
  const res = await writer.post('/v1/intent-cards', card);
  if (res.status !== 201) throw new Error(`installing card ${card.id} answered ${res.status}: ${res.text}`);
}

/** Dispenses a mandate over CRM_SCOPE for `crm-api` (200 expected). */
export async function dispenseMandate(
  writer: Client,
  m: { intentId: string; actor: string; promptId?: string; ttlSeconds?: number },
): Promise<{ credential: string; cred_id: string }> {
  const res = await writer.post('/v1/mandate/dispense', {
    actor: m.actor,
    intent_id: m.intentId,
    ...(m.promptId !== undefined ? { prompt_id: m.promptId } : {}),
    requested_scope: CRM_SCOPE,
    audience: 'crm-api',
    ttl_seconds: m.ttlSeconds ?? 3600,
  });
  if (res.status !== 200) throw new Error(`dispensing a mandate for ${m.intentId} answered ${res.status}: ${res.text}`);
  return res.body as { credential: string; cred_id: string };
}

/** The `org` claim of a mandate (the org of the key that dispensed it). */
export const mandateOrg = (credential: string): string => JSON.parse(Buffer.from(credential.split('.')[1]!, 'base64url').toString()).org;

/** Creates an intention in the writer's org and publishes it (201, then 200 expected). */
export async function createPublishedIntention(
  writer: Client,
  body: { label: string; intent_class: string; display_name: string; description: string; approval_required?: boolean; tools?: string[] },
): Promise<string> {
  const intention = await writer.post('/v1/intentions', body);
  expect(intention.status).toBe(201);
  expect((await writer.post(`/v1/intentions/${intention.body.id}/publish`)).status).toBe(200);
  return intention.body.id as string;
}
