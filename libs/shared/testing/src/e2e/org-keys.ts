import { randomBytes } from 'node:crypto';
import { client, type Client } from './http-client';
import type { TestSystem } from './system';

/** A new key of the admin's org. */
export async function mintKey(admin: Client, name: string, scope: string): Promise<string> {
  return (await admin.post('/v1/api-keys', { name, scope })).body.key as string;
}

/** A client with the admin key of a new org (another tenant), named `<prefix>-<random>`. */
export async function otherOrgClient(sys: TestSystem, prefix = 'other'): Promise<Client> {
  const o = await client(sys.url, sys.platformKey).post('/v1/orgs', { name: `${prefix}-${randomBytes(3).toString('hex')}` });
  return client(sys.url, o.body.api_key.key);
}

/** A suite's usual cast: the test org's admin, a `writer` (policy_write) and a read-only key of that org, and another org's admin. */
export async function suiteClients(sys: TestSystem, readOnlyName: string): Promise<{ admin: Client; writer: Client; readOnly: Client; otherOrg: Client }> {
  const admin = client(sys.url, sys.adminKey);
  const writer = client(sys.url, await mintKey(admin, 'writer', 'policy_write'));
  const readOnly = client(sys.url, await mintKey(admin, readOnlyName, 'read_only'));
  return { admin, writer, readOnly, otherOrg: await otherOrgClient(sys) };
}

/** A fresh org (`<prefix>-<random>`): its admin, an operator (policy_write) and an agent (read_only, evaluates). */
export async function operatorAndAgent(sys: TestSystem, prefix: string): Promise<{ admin: Client; operator: Client; agent: Client }> {
  const admin = await otherOrgClient(sys, prefix);
  return {
    admin,
    operator: client(sys.url, await mintKey(admin, 'operator', 'policy_write')),
    agent: client(sys.url, await mintKey(admin, 'agent', 'read_only')),
  };
}

/** Creates an intention (`lookup` unless `body` says otherwise) and publishes it; resolves with its id. */
export async function publishIntention(c: Client, body: Record<string, unknown>): Promise<string> {
  const created = await c.post('/v1/intentions', { intent_class: 'lookup', ...body });
  expect(created.status).toBe(201);
  expect((await c.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
  return created.body.id;
}
