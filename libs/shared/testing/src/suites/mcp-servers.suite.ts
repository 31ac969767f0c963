import { randomBytes } from 'node:crypto';
import { client, type Client } from '../e2e/http-client';
import { mintKey, otherOrgClient } from '../e2e/org-keys';
import type { TestSystem } from '../e2e/system';

/** The suite's system refuses private upstreams (the production default), so loopback is refused. */
export const MCP_SERVERS_TEST_ENV = { MCP_UPSTREAMS_ALLOW_PRIVATE: 'false' };

/** A public address that is never resolved nor called at registration (an IP literal). */
const PUBLIC_URL = 'https://93.184.216.34/mcp';

/**
 * The MCP upstream registry over HTTP (DESIGN 6.13, `/v1/mcp-servers`), the same in every mode:
 * header values never come back, names are unique per org, another org's ids are 404.
 */
export function describeMcpServers(mode: string, start: (env: Record<string, string>) => Promise<TestSystem>) {
  describe(`mcp servers (${mode})`, () => {
    let sys: TestSystem;
    let admin: Client;
    let writer: Client;
    let readOnly: Client;
    let otherOrg: Client;
    const unique = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`;

    beforeAll(async () => {
      sys = await start(MCP_SERVERS_TEST_ENV);
      admin = client(sys.url, sys.adminKey);
      writer = client(sys.url, await mintKey(admin, 'mcp-writer', 'policy_write'));
      readOnly = client(sys.url, await mintKey(admin, 'mcp-reader', 'read_only'));
      otherOrg = await otherOrgClient(sys, 'mcp-other');
    });

    afterAll(async () => {
      await sys?.stop();
    });

    it('registers (201) showing header names but never their values; lists and gets it; 404 for another org', async () => {
      const name = unique('crm');
      const secret = `Bearer ${randomBytes(16).toString('hex')}`;
      const res = await writer.post('/v1/mcp-servers', { name, url: PUBLIC_URL, headers: { Authorization: secret, 'X-Tenant': 't1' }, shadow: true });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^mcs_/),
        name,
        url: PUBLIC_URL,
        header_names: ['Authorization', 'X-Tenant'],
        shadow: true,
        created_at: expect.any(String),
      });
      expect(res.text).not.toContain(secret);
      const id = res.body.id as string;

      const got = await readOnly.get(`/v1/mcp-servers/${id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(res.body);
      expect(got.text).not.toContain(secret);

      const list = await readOnly.get('/v1/mcp-servers?limit=200');
      expect(list.status).toBe(200);
      expect(list.body.data).toContainEqual(res.body);
      expect(list.text).not.toContain(secret);
      expect(list.body).toHaveProperty('next_cursor');

      expect(await otherOrg.get(`/v1/mcp-servers/${id}`)).toMatchObject({ status: 404, body: { code: 'not_found' } });
      expect(await otherOrg.delete(`/v1/mcp-servers/${id}`)).toMatchObject({ status: 404, body: { code: 'not_found' } });
      expect((await otherOrg.get('/v1/mcp-servers')).body.data.map((s: { id: string }) => s.id)).not.toContain(id);
      expect(sys.output()).not.toContain(secret);
    });

    it('a name the org already uses is 409; another org may use it', async () => {
      const name = unique('dup');
      expect((await writer.post('/v1/mcp-servers', { name, url: PUBLIC_URL })).status).toBe(201);
      const again = await writer.post('/v1/mcp-servers', { name, url: 'https://93.184.216.35/mcp' });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ code: 'name_conflict', message: expect.stringContaining(name) });
      expect((await otherOrg.post('/v1/mcp-servers', { name, url: PUBLIC_URL })).status).toBe(201);
    });

    it.each([
      [{ name: 'Bad Name', url: PUBLIC_URL }, 'name'],
      [{ name: '-x', url: PUBLIC_URL }, 'name'],
      [{ url: PUBLIC_URL }, 'name'],
      [{ name: 'ok', url: 'not a url' }, 'url'],
      [{ name: 'ok', url: 'ftp://93.184.216.34/x' }, 'url'],
      [{ name: 'ok' }, 'url'],
      [{ name: 'ok', url: PUBLIC_URL, headers: { Host: 'x' } }, 'headers'],
      [{ name: 'ok', url: PUBLIC_URL, headers: { 'Bad Name': 'x' } }, 'headers'],
      [{ name: 'ok', url: PUBLIC_URL, shadow: 'yes' }, 'shadow'],
      // Hostile input: lone surrogates, huge and wrong-typed fields.
      [{ name: 'ok\ud800', url: PUBLIC_URL }, 'name'],
      [{ name: 'ok', url: `${PUBLIC_URL}?q=\udfff` }, 'url'],
      [{ name: 'ok', url: PUBLIC_URL, headers: { 'x-token': 'a\ud83d' } }, 'headers'],
      [{ name: 'ok', url: PUBLIC_URL, headers: { 'x-\ud800': 'a' } }, 'headers'],
      [{ name: 'ok', url: `${PUBLIC_URL}?q=${'a'.repeat(3000)}` }, 'url'],
      [{ name: 'ok', url: PUBLIC_URL, headers: { 'x-token': 'a'.repeat(9000) } }, 'headers'],
      [{ name: 'ok', url: PUBLIC_URL, headers: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`x-h${i}`, 'v'])) }, 'headers'],
      [{ name: 'ok', url: PUBLIC_URL, headers: ['x-token', 'a'] }, 'headers'],
      [{ name: 'ok', url: PUBLIC_URL, headers: { 'x-token': 7 } }, 'headers'],
      [{ name: 'ok', url: PUBLIC_URL, headers: { 'x-token': { nested: 'a' } } }, 'headers'],
      [{ name: 7, url: PUBLIC_URL }, 'name'],
      [{ name: 'ok', url: ['https://a.example'] }, 'url'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const res = await writer.post('/v1/mcp-servers', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(field) });
    });

    it.each([
      ['a loopback literal', 'http://127.0.0.1:8080/mcp'],
      ['IPv6 loopback', 'http://[::1]:8080/mcp'],
      ['cloud metadata (link-local)', 'http://169.254.169.254/mcp'],
      ['RFC 1918', 'https://10.1.2.3/mcp'],
      ['localhost', 'http://localhost:8080/mcp'],
    ])('refuses %s with 400 naming url (MCP_UPSTREAMS_ALLOW_PRIVATE=false)', async (_what, url) => {
      const res = await writer.post('/v1/mcp-servers', { name: unique('priv'), url });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('url') });
    });

    it('registering and deleting need policy_write; delete is 204, then 404', async () => {
      const name = unique('del');
      expect(await readOnly.post('/v1/mcp-servers', { name, url: PUBLIC_URL })).toMatchObject({ status: 403, body: { code: 'insufficient_scope' } });
      const created = await writer.post('/v1/mcp-servers', { name, url: PUBLIC_URL });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect(await readOnly.delete(`/v1/mcp-servers/${id}`)).toMatchObject({ status: 403, body: { code: 'insufficient_scope' } });
      expect((await writer.delete(`/v1/mcp-servers/${id}`)).status).toBe(204);
      expect(await writer.get(`/v1/mcp-servers/${id}`)).toMatchObject({ status: 404, body: { code: 'not_found' } });
      expect(await writer.delete(`/v1/mcp-servers/${id}`)).toMatchObject({ status: 404, body: { code: 'not_found' } });
      // The name is free again.
      expect((await writer.post('/v1/mcp-servers', { name, url: PUBLIC_URL })).status).toBe(201);
    });
  });
}
