import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshotDir } from '../browser/chromium';
import { client, type Client } from '../e2e/http-client';
import { mintKey } from '../e2e/org-keys';
import type { TestSystem } from '../e2e/system';

/**
 * The operators' console in a real browser (Debian's Chromium through playwright-core), served
 * by the api-gateway: sign in, create and publish an intention, approve a call an agent's key
 * asked for, see the outcome in history; mint a key and see it once; a wrong key's error.
 * Screenshots of the main pages go to tmp/test-output/console-<mode>/.
 */
export function describeConsole(mode: string, start: () => Promise<TestSystem>) {
  describe(`console in a browser (${mode})`, () => {
    let sys: TestSystem;
    let browser: Browser;
    let page: Page;
    let admin: Client;
    let agent: Client;
    const shots = screenshotDir(`console-${mode}`);
    const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    const pageErrors: string[] = [];

    beforeAll(async () => {
      sys = await start();
      admin = client(sys.url, sys.adminKey);
      // The agent's key asks; the operator's (admin) key decides: no key approves its own call.
      agent = client(sys.url, await mintKey(admin, 'console-agent', 'policy_write'));
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1366, height: 850 } });
      page.on('pageerror', (e) => pageErrors.push(String(e)));
    });

    afterAll(async () => {
      await browser?.close();
      await sys?.stop();
    });

    it('serves the console with a strict content security policy', async () => {
      const res = await fetch(`${sys.url}/console/`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect((await fetch(`${sys.url}/console/src/main.js`)).headers.get('content-type')).toMatch(/javascript/);
      expect((await fetch(`${sys.url}/console/../package.json`)).status).toBe(404);
    });

    it('shows the API’s message for a wrong key, and signs in with the keyboard', async () => {
      await page.goto(`${sys.url}/console/`);
      const key = page.getByLabel('API key');
      await key.fill('igw_this_key_does_not_exist_000000000000');
      await key.press('Enter');
      await expect(page.getByRole('alert').innerText()).resolves.toMatch(/unknown or revoked/);
      await shot('sign-in-wrong-key');
      await key.fill(sys.adminKey);
      await key.press('Enter');
      await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
      // The key stays in this tab's session storage only.
      expect(
        await page.evaluate(() => {
          const w = globalThis as unknown as { sessionStorage: { length: number }; localStorage: { length: number } };
          return [w.sessionStorage.length, w.localStorage.length];
        }),
      ).toEqual([1, 0]);
    });

    it('creates and publishes an intention', async () => {
      await page.getByRole('link', { name: 'Intentions' }).click();
      await page.getByText('New intention').click();
      const form = page.getByRole('form', { name: 'New intention' });
      await form.getByLabel('Label').fill('crm.contact_lookup');
      await form.getByLabel('Description').fill('Look up a CRM contact by email to answer a customer question.');
      await form.getByLabel(/Data elements/).fill('hubspot:contacts.email');
      await form.getByLabel('Approval required').check();
      await form.getByRole('button', { name: 'Create draft' }).click();
      const row = page.locator('tr[data-intention="crm.contact_lookup"]');
      await expect(row.getByText('draft').innerText()).resolves.toBe('draft');
      await row.getByRole('button', { name: 'Publish' }).click();
      await row.getByText('active').waitFor();
      await shot('intentions');
      const listed = await admin.get('/v1/intentions?status=active');
      expect(listed.body.data.map((i: { label: string }) => i.label)).toContain('crm.contact_lookup');
    });

    it('shows a call that needs approval as it arrives, approves it, and the outcome lands in history', async () => {
      await page.getByRole('link', { name: 'Approvals' }).click();
      await page.getByText('No pending approvals.').waitFor();
      const call = { tool_call: { name: 'hubspot.get_contact', arguments: { email: 'ada@example.com' } } };
      const asked = await agent.post('/v1/intent/evaluate', call);
      expect(asked.body).toMatchObject({ outcome: 'pending_approval', intent_label: 'crm.contact_lookup' });
      const id = asked.body.approval_request_id as string;
      // No reload: the queue refreshes itself.
      const row = page.locator(`tr[data-approval="${id}"]`);
      await row.waitFor({ timeout: 10_000 });
      await expect(row.innerText()).resolves.toContain('hubspot.get_contact');
      await shot('approvals-pending');
      await row.getByRole('button', { name: 'Approve' }).click();
      await row.waitFor({ state: 'detached' });
      expect((await admin.get(`/v1/approvals/${id}`)).body).toMatchObject({ status: 'approved' });
      // The agent asks again and is let through; the console's history shows it.
      expect((await agent.post('/v1/intent/evaluate', call)).body.outcome).toBe('approved');
      await page.getByRole('link', { name: 'History' }).click();
      await page.getByLabel('Outcome').selectOption('approved');
      const event = page.locator('tr[data-event]').filter({ hasText: 'hubspot.get_contact' });
      await event.first().waitFor();
      await expect(event.first().innerText()).resolves.toMatch(/approved/);
      await shot('history');
    });

    it('mints a key and shows it once', async () => {
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('Name').fill('ci-bot');
      await page.getByLabel('Scope').selectOption('read_only');
      await page.getByRole('button', { name: 'Mint key' }).click();
      const shown = page.getByTestId('shown-once');
      const key = (await shown.innerText()).trim();
      expect(key).toMatch(/^igw_/);
      await shot('api-keys-minted');
      // It works, and the list never shows it again (a prefix only).
      expect((await client(sys.url, key).get('/v1/intentions')).status).toBe(200);
      await page.getByRole('button', { name: 'I stored it' }).click();
      await shown.waitFor({ state: 'detached' });
      await page.reload();
      await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
      await page.locator('tr[data-key="ci-bot"]').waitFor();
      expect(await page.content()).not.toContain(key);
    });

    it('shows the API’s validation errors next to an intent card, field by field', async () => {
      await page.getByRole('link', { name: 'Intent cards' }).click();
      await page.getByText('New intent card from JSON').click();
      await page.getByLabel('Card (JSON)').fill(JSON.stringify({ name: 'No scope', audiences: 'payments-api' }));
      await page.getByRole('button', { name: 'Install card' }).click();
      const alert = page.getByRole('form', { name: 'New intent card' }).getByRole('alert');
      await expect(alert.innerText()).resolves.toMatch(/allowed_scope/);
      await shot('intent-cards-invalid');
      for (const name of ['MCP servers', 'Mandates', 'Webhooks']) {
        await page.getByRole('link', { name }).click();
        await page.getByRole('heading', { name, level: 1 }).waitFor();
        await shot(name.toLowerCase().replace(/ /g, '-'));
      }
      expect(pageErrors).toEqual([]);
    });
  });
}
