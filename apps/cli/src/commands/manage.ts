import type { Command } from 'commander';
import type { CreateIntention, InstallIntentCard, RegisterMcpServer, UpdateIntention } from '@igw/sdk';
import { configPath, readConfig, writeConfig } from '../config';
import { collect, list, positiveInt, readJsonFile, take, type Ctx } from '../context';
import { UsageError } from '../exit-codes';
import { record, table } from '../output';

const INTENTION_COLUMNS = ['id', 'label', 'status', 'intent_class', 'approval_required', 'tools', 'updated_at'];
const INTENTION_RECORD = ['id', 'label', 'status', 'version', 'intent_class', 'approval_required', 'ttl_minutes', 'tools', 'description', 'updated_at'];
const CLASSES = ['reporting', 'export', 'admin', 'lookup', 'analysis', 'write', 'other'];

/** `--tools a,b` (comma-separated tool-name patterns; `""` for none). */
const toolList = (value: string): string[] => list(value) ?? [];

/** `--approval-required true|false` (update must be able to turn it off). */
function bool(name: string) {
  return (value: string): boolean => {
    if (/^(true|yes|on|1)$/i.test(value)) return true;
    if (/^(false|no|off|0)$/i.test(value)) return false;
    throw new UsageError(`--${name} must be true or false`);
  };
}

function dataElements(elements: string[]) {
  return elements.map((e) => {
    const i = e.indexOf(':');
    if (i < 1) throw new UsageError(`--data-element ${e} must be source:path`);
    return { data_source_id: e.slice(0, i), path: e.slice(i + 1) };
  });
}

export function registerLogin(program: Command, ctx: Ctx): void {
  program
    .command('login')
    .description('store the gateway URL and API key in the user config file (mode 0600)')
    .requiredOption('--url <url>', 'base URL of the gateway, e.g. http://localhost:8080')
    .requiredOption('--key <key>', 'API key (igw_…)')
    .action((o: { url: string; key: string }) => {
      let url: URL;
      try {
        url = new URL(o.url);
      } catch {
        throw new UsageError(`--url ${o.url} is not a URL`);
      }
      const path = configPath(ctx.io.env);
      writeConfig(path, { ...readConfig(path), url: url.toString().replace(/\/+$/, ''), api_key: o.key });
      ctx.print({ url: url.toString().replace(/\/+$/, ''), config: path }, () => `Saved ${url.origin} to ${path}\n`);
    });
}

export function registerIntentions(program: Command, ctx: Ctx): void {
  const cmd = program.command('intentions').alias('purposes').description('intentions (purposes): create, update, publish, archive, list');
  cmd
    .command('create')
    .description('create a draft intention (from options, or the whole body with -f)')
    .option('-f, --file <file>', 'JSON body (- for stdin)')
    .option('--label <label>', 'machine name, unique in the org')
    .option('--intent-class <class>', 'reporting | export | admin | lookup | analysis | write | other')
    .option('--display-name <name>')
    .option('--description <text>')
    .option('--approval-required', 'matching calls need a human approval')
    .option('--ttl-minutes <n>', 'grant TTL in minutes', positiveInt('ttl-minutes'))
    .option('--data-element <source:path>', 'allowed data element (repeatable)', collect)
    .option('--tools <patterns>', 'comma-separated tool-name patterns it covers exactly (* within a dot segment, ** across)', toolList)
    .action(async (o: Record<string, unknown>) => {
      const body = (o['file'] ? readJsonFile(String(o['file'])) : {}) as Record<string, unknown>;
      const set = (key: string, value: unknown) => value !== undefined && (body[key] = value);
      set('label', o['label']);
      set('intent_class', o['intentClass']);
      set('display_name', o['displayName']);
      set('description', o['description']);
      set('approval_required', o['approvalRequired']);
      set('ttl_minutes', o['ttlMinutes']);
      set('tools', o['tools']);
      const elements = o['dataElement'] as string[] | undefined;
      if (elements) body['data_elements'] = dataElements(elements);
      if (!body['label']) throw new UsageError('intentions create needs --label (or a body with -f)');
      const created = await ctx.client().createIntention(body as unknown as CreateIntention);
      ctx.print(created, () => record(created, INTENTION_RECORD));
    });
  cmd
    .command('update <id>')
    .description('change the given fields of a draft or active intention (PATCH; a new version)')
    .option('--display-name <name>')
    .option('--description <text>')
    .option('--intent-class <class>', CLASSES.join(' | '))
    .option('--approval-required <bool>', 'true | false', bool('approval-required'))
    .option('--ttl-minutes <n>', 'grant TTL in minutes', positiveInt('ttl-minutes'))
    .option('--data-element <source:path>', 'allowed data element (repeatable; replaces the list)', collect)
    .option('--tools <patterns>', 'comma-separated tool-name patterns (replaces the list; "" for none)', toolList)
    .action(async (id: string, o: Record<string, unknown>) => {
      const changes: Record<string, unknown> = {};
      const set = (key: string, value: unknown) => value !== undefined && (changes[key] = value);
      set('display_name', o['displayName']);
      set('description', o['description']);
      set('intent_class', o['intentClass']);
      set('approval_required', o['approvalRequired']);
      set('ttl_minutes', o['ttlMinutes']);
      set('tools', o['tools']);
      const elements = o['dataElement'] as string[] | undefined;
      if (elements) changes['data_elements'] = dataElements(elements);
      if (Object.keys(changes).length === 0) throw new UsageError('intentions update needs at least one field to change (see --help)');
      const updated = await ctx.client().updateIntention(id, changes as UpdateIntention);
      ctx.print(updated, () => record(updated, INTENTION_RECORD));
    });
  for (const verb of ['publish', 'archive'] as const) {
    cmd
      .command(`${verb} <id>`)
      .description(verb === 'publish' ? 'make a draft active (it matches traffic at once)' : 'archive an intention (it stops matching)')
      .action(async (id: string) => {
        const c = ctx.client();
        const done = verb === 'publish' ? await c.publishIntention(id) : await c.archiveIntention(id);
        ctx.print(done, () => record(done, INTENTION_COLUMNS));
      });
  }
  cmd
    .command('list')
    .description('list intentions, newest first (every page)')
    .option('--status <status>', 'draft | active | archived')
    .option('--limit <n>', 'at most n', positiveInt('limit'))
    .action(async (o: { status?: 'draft' | 'active' | 'archived'; limit?: number }) => {
      const items = await take(ctx.client().intentions(o.status ? { status: o.status } : {}), o.limit);
      ctx.print({ data: items }, () => table(items, INTENTION_COLUMNS));
    });
}

export function registerCards(program: Command, ctx: Ctx): void {
  const cmd = program.command('cards').description('intent cards: apply, list');
  cmd
    .command('apply')
    .description('install a card from a JSON file; an existing id is replaced (version + 1)')
    .requiredOption('-f, --file <file>', 'the card as JSON (- for stdin)')
    .action(async (o: { file: string }) => {
      const card = await ctx.client().installCard(readJsonFile(o.file) as unknown as InstallIntentCard);
      ctx.print(card, () => record(card, ['id', 'name', 'version', 'audiences', 'max_ttl_seconds']));
    });
  cmd
    .command('list')
    .description('list the installed cards')
    .action(async () => {
      const items = await take(ctx.client().cards());
      ctx.print({ data: items }, () => table(items, ['id', 'name', 'version', 'audiences']));
    });
}

export function registerMcpServers(program: Command, ctx: Ctx): void {
  const cmd = program.command('mcp-servers').description('upstream MCP servers behind {base}/mcp/{name}: add, list, rm');
  const columns = ['id', 'name', 'url', 'header_names', 'shadow'];
  cmd
    .command('add')
    .description('register an upstream MCP server')
    .requiredOption('--name <name>', 'the name in {base}/mcp/{name}')
    .requiredOption('--url <url>', 'the upstream Streamable HTTP endpoint')
    .option('--header <name:value>', 'header forwarded upstream, sealed at rest (repeatable)', collect)
    .option('--shadow', 'legacy path: forward what evaluation denies, recorded as shadow_denied')
    .action(async (o: { name: string; url: string; header?: string[]; shadow?: boolean }) => {
      const headers: Record<string, string> = {};
      for (const h of o.header ?? []) {
        const i = h.indexOf(':');
        if (i < 1) throw new UsageError(`--header ${h.split(':')[0]} must be name:value`);
        headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
      }
      const body: RegisterMcpServer = { name: o.name, url: o.url, ...(o.header ? { headers } : {}), ...(o.shadow ? { shadow: true } : {}) };
      const server = await ctx.client().addMcpServer(body);
      ctx.print(server, () => record(server, columns));
    });
  cmd
    .command('list')
    .description('list the registered servers')
    .action(async () => {
      const items = await take(ctx.client().mcpServers());
      ctx.print({ data: items }, () => table(items, columns));
    });
  cmd
    .command('rm <id-or-name>')
    .description('remove a registered server')
    .action(async (ref: string) => {
      const c = ctx.client();
      let id = ref;
      for await (const s of c.mcpServers()) if (s.name === ref) id = s.id;
      await c.removeMcpServer(id);
      ctx.print({ id, removed: true }, () => `Removed ${ref}\n`);
    });
}

export function registerApprovals(program: Command, ctx: Ctx): void {
  const cmd = program.command('approvals').description('approval requests: list, approve, deny');
  const columns = ['id', 'status', 'source', 'summary', 'expires_at'];
  cmd
    .command('list')
    .description('list approval requests, newest first')
    .option('--status <status>', 'pending | approved | denied | expired')
    .option('--limit <n>', 'at most n', positiveInt('limit'))
    .action(async (o: { status?: 'pending' | 'approved' | 'denied' | 'expired'; limit?: number }) => {
      const items = await take(ctx.client().approvals(o.status ? { status: o.status } : {}), o.limit);
      ctx.print({ data: items }, () => table(items, columns));
    });
  const decided = ['id', 'status', 'intent_label', 'decided_at', 'reason'];
  cmd
    .command('approve <id>')
    .description('approve a pending request (--remember teaches the gateway: calls like it pass from then on)')
    .option('--remember', 'store the call as a positive example of the approved intention (legacy path)')
    .option('--as <label>', 'approve it as another active intention (the grant is for it; with --remember, also a negative example of the candidate)')
    .option('--reason <text>')
    .action(async (id: string, o: { remember?: boolean; as?: string; reason?: string }) => {
      const done = await ctx.client().approve(id, {
        ...(o.reason !== undefined ? { reason: o.reason } : {}),
        ...(o.remember ? { remember: true } : {}),
        ...(o.as !== undefined ? { intent_label: o.as } : {}),
      });
      ctx.print(done, () => record(done, decided));
    });
  cmd
    .command('deny <id>')
    .description('deny a pending request (--remember: calls like it are never matched to the candidate again)')
    .option('--remember', 'store the call as a negative example of the candidate intention (legacy path)')
    .option('--reason <text>')
    .action(async (id: string, o: { remember?: boolean; reason?: string }) => {
      const done = await ctx.client().deny(id, { ...(o.reason !== undefined ? { reason: o.reason } : {}), ...(o.remember ? { remember: true } : {}) });
      ctx.print(done, () => record(done, decided));
    });
}
