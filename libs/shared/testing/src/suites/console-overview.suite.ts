import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium, screenshotDir } from '../browser/chromium';
import { REPO_ROOT } from '../e2e/app-process';
import { client, type Client } from '../e2e/http-client';
import { createPublishedIntention, crmCard, dispenseMandate, installCard } from '../e2e/mandate-fixtures';
import { mintKey, otherOrgClient } from '../e2e/org-keys';
import type { TestSystem } from '../e2e/system';

/**
 * The console overview (DESIGN 6.14) in a real browser: the landing page once signed in; its
 * charts are drawn (uPlot canvases with ink on them) under the console's strict CSP, and the
 * tables beside them hold exactly the numbers GET /v1/stats answers; the window switch reloads
 * them. The embedded run leaves the README's screenshot in docs/images/console-overview.png.
 */
export function describeConsoleOverview(mode: string, start: () => Promise<TestSystem>) {
  describe(`console overview in a browser (${mode})`, () => {
    let sys: TestSystem;
    let browser: Browser;
    let page: Page;
    let operator: Client;
    let operatorKey: string;
    let writerKey: string;
    const problems: string[] = [];

    beforeAll(async () => {
      sys = await start();
      operator = await otherOrgClient(sys, 'overview');
      operatorKey = await mintKey(operator, 'overview-operator', 'read_only');
      writerKey = await mintKey(operator, 'overview-writer', 'policy_write');
      const writer = client(sys.url, writerKey);
      const agent = client(sys.url, await mintKey(operator, 'overview-agent', 'read_only'));
      await createPublishedIntention(writer, {
        label: 'crm.contact_lookup',
        intent_class: 'lookup',
        display_name: 'Look up a contact',
        description: 'look up a crm contact by email',
        tools: ['hubspot.get_contact'],
      });
      await createPublishedIntention(writer, {
        label: 'billing.refund',
        intent_class: 'write',
        display_name: 'Refund an invoice',
        description: 'refund a paid invoice',
        approval_required: true,
        tools: ['stripe.create_refund'],
      });
      const evaluate = (name: string, args: Record<string, unknown>) => agent.post('/v1/intent/evaluate', { tool_call: { name, arguments: args } });
      for (let i = 0; i < 5; i++) await evaluate('hubspot.get_contact', { email: `user${i}@example.com` });
      for (let i = 0; i < 2; i++) await evaluate('stripe.create_refund', { invoice: `in_${i}` });
      for (let i = 0; i < 3; i++) await evaluate('shell.exec', { cmd: `rm -rf /tmp/${i}` });
      await evaluate('gmail.delete_thread', { id: 't1' });
      const cardId = 'crm-support';
      await installCard(
        writer,
        crmCard(cardId, 'CRM support', [
          { id: 'no-export', when: 'action.operation == "crm.contacts.export"', decision: { kind: 'deny', reason: 'bulk_export' } },
        ]),
      );
      const mandate = await dispenseMandate(writer, { intentId: cardId, actor: 'agent:support' });
      for (const operation of ['crm.contacts.read', 'crm.contacts.read', 'crm.contacts.read', 'crm.contacts.export']) {
        await agent.post(
          '/v1/mcp-proxy/call',
          {
            action: { surface: 'sdk', operation, arguments: { id: 1 }, target_resource: 'crm://contacts/1' },
            context: { actor: 'agent:support' },
            audience: 'crm-api',
          },
          { 'x-service-mandate': mandate.credential },
        );
      }
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on('pageerror', (e) => problems.push(String(e)));
      // A CSP violation (an inline style the chart library might set) is reported on the console.
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    });

    afterAll(async () => {
      await browser?.close();
      await sys?.stop();
    });

    /** The `data-count`s of a table's rows, by `data-key`. */
    const tableCounts = (table: string) =>
      page.$$eval(`table[data-table="${table}"] tbody tr[data-key]`, (rows) =>
        Object.fromEntries(rows.map((r) => [r.getAttribute('data-key'), Number(r.querySelector('[data-count]')?.getAttribute('data-count'))])),
      );
    const listCounts = (rows: { count: number }[], key: (r: never) => string) => Object.fromEntries(rows.map((r) => [key(r as never), r.count]));

    /** A page of its own, signed in with the policy_write key, on the overview. */
    const signedInWriter = async (): Promise<Page> => {
      const editor = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      editor.on('pageerror', (e) => problems.push(String(e)));
      await editor.goto(`${sys.url}/console/`);
      await editor.getByLabel('API key').fill(writerKey);
      await editor.getByLabel('API key').press('Enter');
      await editor.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      return editor;
    };

    /** A preview panel shows exactly the replay the API answered: counts per transition, changed calls, calls replayed. */
    const expectPreviewOf = async (
      panel: Locator,
      expected: { replayed: number; transitions: { from: string; to: string; count: number }[]; calls: unknown[] },
    ) => {
      await panel.locator('table[data-table="transitions"]').waitFor();
      const shown = await panel
        .locator('table[data-table="transitions"] tbody tr[data-key]')
        .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-key'), Number(r.querySelector('[data-count]')?.getAttribute('data-count'))]));
      expect(Object.fromEntries(shown)).toEqual(Object.fromEntries(expected.transitions.map((t) => [`${t.from}>${t.to}`, t.count])));
      expect(await panel.locator('table[data-table="changed-calls"] tbody tr').count()).toBe(expected.calls.length);
      await expect(panel.locator('[data-replayed]').getAttribute('data-replayed')).resolves.toBe(String(expected.replayed));
    };

    it('lands on the overview once signed in, with the charts drawn and their tables holding the numbers of GET /v1/stats', async () => {
      await page.goto(`${sys.url}/console/`);
      const key = page.getByLabel('API key');
      await key.fill(operatorKey);
      await key.press('Enter');
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      await page.locator('[data-window="1h"]').waitFor();
      const stats = (await operator.get('/v1/stats?window=1h')).body;
      expect(stats.evaluations.total).toBe(11);

      // Both time series are uPlot canvases with something drawn on them.
      for (const section of ['evaluations', 'decisions']) {
        const canvas = page.locator(`[data-section="${section}"] .chart canvas`);
        await canvas.first().waitFor();
        const ink = await canvas.first().evaluate((c) => {
          const el = c as unknown as { width: number; height: number; getContext(k: '2d'): { getImageData(...a: number[]): { data: Uint8ClampedArray } } };
          const data = el.getContext('2d').getImageData(0, 0, el.width, el.height).data;
          let painted = 0;
          for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) painted++;
          return painted;
        });
        expect({ section, drawn: ink > 0 }).toEqual({ section, drawn: true });
        await expect(page.locator(`[data-section="${section}"] .chart`).getAttribute('role')).resolves.toBe('img');
      }

      expect(await tableCounts('evaluations')).toEqual(stats.evaluations.by_outcome);
      expect(await tableCounts('decisions')).toEqual({ allow: 3, deny: 1 });
      expect(await tableCounts('refused-tools')).toEqual(listCounts(stats.top_refused_tools, (t: { tool: string }) => t.tool));
      expect(await tableCounts('refused-tools')).toMatchObject({ 'crm.contacts.export': 1 });
      expect(await tableCounts('intentions')).toEqual(listCounts(stats.intentions, (t: { intent_label: string }) => t.intent_label));
      expect(await tableCounts('cards')).toEqual({ 'crm-support': 4 });
      await expect(page.locator('[data-figure="pending"] .figure').innerText()).resolves.toBe(String(stats.approvals.pending));
      await expect(page.locator('[data-figure="auto-decided"] .figure').innerText()).resolves.toBe(`${(stats.auto_decided.share * 100).toFixed(1)} %`);
      await expect(page.locator('[data-section="evaluations"] [data-total]').getAttribute('data-total')).resolves.toBe('11');

      const shotPath = join(screenshotDir(`console-overview-${mode}`), 'overview.png');
      await page.screenshot({ path: shotPath, fullPage: true });
      if (mode === 'embedded') {
        mkdirSync(join(REPO_ROOT, 'docs/images'), { recursive: true });
        await page.screenshot({ path: join(REPO_ROOT, 'docs/images/console-overview.png'), fullPage: true });
      }
    });

    it('switches the window: 7 days in hourly buckets, the same totals', async () => {
      await page.getByRole('button', { name: 'Last 7 days' }).click();
      await page.locator('[data-window="7d"]').waitFor();
      await expect(page.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).resolves.toBe('true');
      const stats = (await operator.get('/v1/stats?window=7d')).body;
      expect(await tableCounts('evaluations')).toEqual(stats.evaluations.by_outcome);
      expect(await tableCounts('decisions')).toEqual(stats.decisions.by_kind);
      await expect(page.locator('[data-section="evaluations"] .chart canvas').first().isVisible()).resolves.toBe(true);
      expect(problems).toEqual([]);
    });

    it("Preview beside Publish: a draft's effect on the kept calls, per transition and call, with nothing recorded", async () => {
      const writer = client(sys.url, writerKey);
      const draft = await writer.post('/v1/intentions', {
        label: 'ops.tmp_cleanup',
        intent_class: 'admin',
        description: 'clean temp files',
        tools: ['shell.exec'],
      });
      expect(draft.status).toBe(201);
      const change = {
        action: 'create',
        intention: { label: 'ops.tmp_cleanup', intent_class: 'admin', approval_required: false, description: 'clean temp files', tools: ['shell.exec'] },
      };
      const expected = (await writer.post('/v1/replays', { kind: 'intentions', changes: [change] })).body;
      // The three shell.exec calls no intention covered would be allowed under the binding.
      expect(expected.transitions).toContainEqual({ from: 'denied', to: 'allowed', count: 3 });

      const editor = await signedInWriter();
      await editor.goto(`${sys.url}/console/#/intentions`);
      const row = editor.locator('tr[data-intention="ops.tmp_cleanup"]');
      await row.getByRole('button', { name: 'Preview' }).click();
      const panel = editor.getByRole('region', { name: 'Preview: publish ops.tmp_cleanup' });
      await expectPreviewOf(panel, expected);
      await editor.screenshot({ path: join(screenshotDir(`console-overview-${mode}`), 'preview.png'), fullPage: true });
      await editor.close();

      // Nothing was recorded: the draft is still a draft, and the evaluations are those of before.
      expect((await writer.get(`/v1/intentions/${draft.body.id}`)).body.status).toBe('draft');
      expect((await operator.get('/v1/stats?window=1h')).body.evaluations.total).toBe(11);
      expect(problems).toEqual([]);
    });

    it("Preview beside Install card: a card draft's effect on the kept mandate-path calls, with nothing recorded", async () => {
      const writer = client(sys.url, writerKey);
      // The installed card without its rule: the refused export would be allowed.
      const draft = crmCard('crm-support', 'CRM support', []);
      const expected = (await writer.post('/v1/replays', { kind: 'card', card: draft })).body;
      expect(expected.transitions).toContainEqual({ from: 'deny', to: 'allow', count: 1 });
      const decisionsBefore = (await operator.get('/v1/stats?window=1h')).body.decisions.total;

      const editor = await signedInWriter();
      await editor.goto(`${sys.url}/console/#/cards`);
      await editor.getByText('New intent card from JSON').click();
      await editor.getByLabel('Card (JSON)').fill(JSON.stringify(draft, null, 2));
      await editor.getByRole('button', { name: 'Preview' }).click();
      const panel = editor.getByRole('region', { name: 'Preview: install CRM support' });
      await expectPreviewOf(panel, expected);
      await editor.close();

      // Nothing was installed or recorded: the card keeps its rule, and the decisions are those of before.
      expect((await writer.get('/v1/intent-cards/crm-support')).body.rules).toHaveLength(1);
      expect((await operator.get('/v1/stats?window=1h')).body.decisions.total).toBe(decisionsBefore);
      expect(problems).toEqual([]);
    });
  });
}
