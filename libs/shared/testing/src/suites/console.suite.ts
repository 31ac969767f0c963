import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshotDir } from '../browser/chromium';
import { client, type Client } from '../e2e/http-client';
import { mintKey } from '../e2e/org-keys';
import type { TestSystem } from '../e2e/system';
import { LEDGER_INTENTION, ledgerCall, PAYOUTS_INTENTION } from '../e2e/uncertain-fixtures';

/**
 * The operators' console in a real browser (Debian's Chromium through playwright-core), served
 * by the api-gateway: sign in, create and publish an intention, approve a call an agent's key
 * asked for, see the outcome in history; mint a key and see it once; a wrong key's error.
 * Teaching from the queue (DESIGN 6.15): an uncertain match shows its candidates and call;
 * "Approve & remember" and "Approve as…" teach examples, and so does "Teach" on a history row; an
 * intention's tools and examples are edited on the intentions page. Screenshots of the main pages go to tmp/test-output/console-<mode>/.
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
      // The overview is the landing page once signed in.
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
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
      await row.getByRole('button', { name: 'Approve', exact: true }).click();
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

    // Teaching: each test signs in to an org of its own, so what it teaches meets nothing else.
    const LEDGER = LEDGER_INTENTION;
    const PAYOUTS = PAYOUTS_INTENTION;

    let orgs = 0;
    /** A new org with both intentions active, the browser signed in with its admin key, and an agent key (not the approver's). */
    async function teachingOrg(): Promise<{ operator: Client; agent: Client; ledger: string; payouts: string }> {
      const org = await client(sys.url, sys.platformKey).post('/v1/orgs', { name: `console-teach-${++orgs}` });
      expect(org.status).toBe(201);
      const operatorKey = org.body.api_key.key as string;
      const operator = client(sys.url, operatorKey);
      const ids: string[] = [];
      for (const body of [LEDGER, PAYOUTS]) {
        const created = await operator.post('/v1/intentions', body);
        expect(created.status).toBe(201);
        expect((await operator.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
        ids.push(created.body.id);
      }
      const agent = client(sys.url, await mintKey(operator, 'console-teach-agent', 'read_only'));
      // Signed out (the key lives in this tab's session storage), then in with the new org's key.
      await page.goto(`${sys.url}/console/#/approvals`);
      await page.evaluate(() => (globalThis as unknown as { sessionStorage: { clear(): void } }).sessionStorage.clear());
      await page.reload();
      const key = page.getByLabel('API key');
      await key.fill(operatorKey);
      await key.press('Enter');
      await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
      return { operator, agent, ledger: ids[0] as string, payouts: ids[1] as string };
    }

    it('shows an uncertain match (candidates, the call); "Approve & remember" makes a like call certain by example', async () => {
      const { operator, agent, ledger } = await teachingOrg();
      const asked = await agent.post('/v1/intent/evaluate', ledgerCall({ entry_id: 'LE-1' }));
      expect(asked.body).toMatchObject({ outcome: 'pending_approval', reason: 'uncertain_match', intent_label: 'finance.ledger_lookup' });
      const id = asked.body.approval_request_id as string;
      const row = page.locator(`tr[data-approval="${id}"]`);
      await row.waitFor({ timeout: 10_000 });
      await expect(row.innerText()).resolves.toContain('Uncertain match');
      const candidate = row.locator('[data-candidate="finance.ledger_lookup"]');
      await expect(candidate.innerText()).resolves.toMatch(/finance\.ledger_lookup\s+\d+%/);
      const call = row.getByTestId('call');
      await expect(call.innerText()).resolves.toContain('erp.fetch_ledger_entry');
      await expect(call.locator('pre').innerText()).resolves.toContain('"entry_id": "LE-1"');
      await shot('approvals-uncertain');

      await row.getByRole('button', { name: 'Approve & remember' }).click();
      await row.waitFor({ state: 'detached' });
      expect((await operator.get(`/v1/approvals/${id}`)).body).toMatchObject({ status: 'approved' });
      const examples = await operator.get(`/v1/intentions/${ledger}/examples`);
      expect(examples.body.data).toEqual([
        expect.objectContaining({ covered: true, source: 'approval', approval_id: id, tool_call: ledgerCall({ entry_id: 'LE-1' }).tool_call }),
      ]);
      // A like call (another entry) is now allowed with no human, by the example.
      const like = await agent.post('/v1/intent/evaluate', ledgerCall({ entry_id: 'LE-2' }));
      expect(like.body).toMatchObject({ outcome: 'allowed', intent_label: 'finance.ledger_lookup' });
      expect(like.body.classification_evidence.classification_method).toBe('example');
    });

    it('"Approve as…" another intention (remember on by default) teaches it; the call is shown escaped', async () => {
      const { operator, agent, ledger, payouts } = await teachingOrg();
      const asked = await agent.post('/v1/intent/evaluate', ledgerCall({ entry_id: 'LE-7', memo: '<b>bold</b>' }));
      expect(asked.body).toMatchObject({ outcome: 'pending_approval', intent_label: 'finance.ledger_lookup' });
      const id = asked.body.approval_request_id as string;
      const row = page.locator(`tr[data-approval="${id}"]`);
      await row.waitFor({ timeout: 10_000 });
      // Arguments are text, never markup.
      await expect(row.getByTestId('call').innerText()).resolves.toContain('"memo": "<b>bold</b>"');
      expect(await row.locator('pre b').count()).toBe(0);

      await row.getByRole('button', { name: 'Approve as…' }).click();
      const form = row.getByRole('form', { name: `Approve ${id} as another intention` });
      await form.getByLabel('Approve as').selectOption('finance.payout_review');
      expect(await form.getByLabel('Remember').isChecked()).toBe(true);
      await shot('approvals-approve-as');
      await form.getByRole('button', { name: 'Approve as finance.payout_review' }).click();
      await row.waitFor({ state: 'detached' });
      expect((await operator.get(`/v1/approvals/${id}`)).body).toMatchObject({ status: 'approved', intent_label: 'finance.payout_review' });
      expect((await operator.get(`/v1/intentions/${payouts}/examples`)).body.data).toEqual([expect.objectContaining({ covered: true, source: 'approval' })]);
      expect((await operator.get(`/v1/intentions/${ledger}/examples`)).body.data).toEqual([expect.objectContaining({ covered: false, source: 'approval' })]);
      // Remembered for the operator's choice: a like call is certain for it, by example.
      const like = await agent.post('/v1/intent/evaluate', ledgerCall({ entry_id: 'LE-8', memo: '<b>bold</b>' }));
      expect(like.body).toMatchObject({ outcome: 'allowed', intent_label: 'finance.payout_review' });
      expect(like.body.classification_evidence.classification_method).toBe('example');

      // The intentions page shows the taught examples.
      await page.getByRole('link', { name: 'Intentions' }).click();
      await page.locator('tr[data-intention="finance.payout_review"]').getByRole('button', { name: 'Examples' }).click();
      const panel = page.getByRole('region', { name: 'Examples of finance.payout_review' });
      const example = panel.locator('tr[data-example]');
      await example.first().waitFor();
      await expect(example.first().innerText()).resolves.toMatch(/erp\.fetch_ledger_entry[\s\S]*covered[\s\S]*approval/);
      await shot('intention-examples');
    });

    it('"Teach" on a history row stores its kept call as an example: a like call passes by it, and a wrongly allowed one never again', async () => {
      const { operator, agent, ledger } = await teachingOrg();
      const asked = await agent.post('/v1/intent/evaluate', ledgerCall({ entry_id: 'LE-30' }));
      expect(asked.body).toMatchObject({ outcome: 'pending_approval', reason: 'uncertain_match' });
      await page.getByRole('link', { name: 'History' }).click();
      const row = page.locator(`tr[data-event="${asked.body.intent_event_id}"]`);
      await row.waitFor({ timeout: 10_000 });
      await row.getByRole('button', { name: `Teach from ${asked.body.intent_event_id}` }).click();
      const form = row.getByRole('form', { name: `Teach from evaluation ${asked.body.intent_event_id}` });
      await expect(form.locator('pre').innerText()).resolves.toContain('"entry_id": "LE-30"');
      // A call that waited is most likely the intention it was matched to: that is the default.
      const picker = form.getByRole('combobox', { name: /^Intention/ });
      // The org's intentions load first; the default is chosen once they are in.
      await picker.locator('option[value="finance.ledger_lookup"]').waitFor({ state: 'attached' });
      for (const deadline = Date.now() + 5000; (await picker.inputValue()) !== 'finance.ledger_lookup' && Date.now() < deadline;) await page.waitForTimeout(50);
      await expect(picker.inputValue()).resolves.toBe('finance.ledger_lookup');
      expect(await form.getByLabel('Calls like this are this intention').isChecked()).toBe(true);
      await shot('history-teach');
      await form.getByRole('button', { name: 'Teach' }).click();
      await form.getByRole('status').waitFor();
      expect((await operator.get(`/v1/intentions/${ledger}/examples`)).body.data).toEqual([
        expect.objectContaining({ covered: true, source: 'manual', tool_call: ledgerCall({ entry_id: 'LE-30' }).tool_call }),
      ]);
      const like = await agent.post('/v1/intent/evaluate', ledgerCall({ entry_id: 'LE-31' }));
      expect(like.body).toMatchObject({
        outcome: 'allowed',
        intent_label: 'finance.ledger_lookup',
        classification_evidence: { classification_method: 'example' },
      });

      // That allowed call, taught "never this intention" from its own row: the next like call waits for a human again.
      await page.reload();
      const allowed = page.locator(`tr[data-event="${like.body.intent_event_id}"]`);
      await allowed.waitFor({ timeout: 10_000 });
      await allowed.getByRole('button', { name: `Teach from ${like.body.intent_event_id}` }).click();
      const never = allowed.getByRole('form', { name: `Teach from evaluation ${like.body.intent_event_id}` });
      expect(await never.getByLabel('Calls like this are never this intention').isChecked()).toBe(true);
      await never.getByRole('button', { name: 'Teach' }).click();
      await never.getByRole('status').waitFor();
      const again = await agent.post('/v1/intent/evaluate', ledgerCall({ entry_id: 'LE-32' }));
      expect(again.body.outcome).not.toBe('allowed');
      expect(pageErrors).toEqual([]);
    });

    it("edits an intention's tools (PATCH), creates one with tools, adds and deletes examples; bad input is shown next to its form", async () => {
      const { operator, ledger } = await teachingOrg();
      await page.getByRole('link', { name: 'Intentions' }).click();
      const row = page.locator('tr[data-intention="finance.ledger_lookup"]');
      await expect(row.locator('td.tools').innerText()).resolves.toContain('classifier decides');

      await row.getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('form', { name: 'Edit intention' });
      await edit.getByLabel('Tools').fill('erp.fetch_ledger_*, not ok');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect(edit.getByRole('alert').innerText()).resolves.toMatch(/tools\[1\]/);
      await edit.getByLabel('Tools').fill('erp.fetch_ledger_*\nerp.get_*_balance');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await row.locator('td.tools code', { hasText: 'erp.get_*_balance' }).waitFor();
      await expect(row.locator('td.tools').innerText()).resolves.toMatch(/erp\.fetch_ledger_\*\s+erp\.get_\*_balance/);
      expect(await edit.getByRole('alert').count()).toBe(0);
      expect((await operator.get(`/v1/intentions/${ledger}`)).body).toMatchObject({ tools: ['erp.fetch_ledger_*', 'erp.get_*_balance'], version: 3 });
      await shot('intention-edit');

      await page.getByText('New intention').click();
      const create = page.getByRole('form', { name: 'New intention' });
      await create.getByLabel('Label').fill('finance.balance_check');
      await create.getByLabel('Tools').fill('erp.get_balance');
      await create.getByRole('button', { name: 'Create draft' }).click();
      await expect(page.locator('tr[data-intention="finance.balance_check"] td.tools').innerText()).resolves.toBe('erp.get_balance');

      await row.getByRole('button', { name: 'Examples' }).click();
      const panel = page.getByRole('region', { name: 'Examples of finance.ledger_lookup' });
      await panel.getByText('No examples yet').waitFor();
      const add = panel.getByRole('form', { name: 'New example' });
      await add.getByLabel('Tool name').fill('erp.delete_ledger_entry');
      await add.getByLabel('Arguments (JSON)').fill('{nope');
      await add.getByRole('button', { name: 'Add example' }).click();
      await expect(add.getByRole('alert').innerText()).resolves.toMatch(/tool_call\.arguments/);
      await add.getByLabel('Arguments (JSON)').fill('{"entry_id": "LE-9"}');
      await add.getByLabel(/Covered/).uncheck();
      await add.getByRole('button', { name: 'Add example' }).click();
      const example = panel.locator('tr[data-example]');
      await expect(example.innerText()).resolves.toMatch(/erp\.delete_ledger_entry[\s\S]*LE-9[\s\S]*not covered[\s\S]*manual/);
      const listed = (await operator.get(`/v1/intentions/${ledger}/examples`)).body.data;
      expect(listed).toEqual([
        expect.objectContaining({ covered: false, source: 'manual', tool_call: { name: 'erp.delete_ledger_entry', arguments: { entry_id: 'LE-9' } } }),
      ]);
      await example.getByRole('button', { name: 'Delete' }).click();
      await panel.getByText('No examples yet').waitFor();
      expect((await operator.get(`/v1/intentions/${ledger}/examples`)).body.data).toEqual([]);
      expect(pageErrors).toEqual([]);
    });
  });
}
