import type { Command } from 'commander';
import type { CreateIntentionExample, IntentionExample } from '@igw/sdk';
import { parseJsonOption, positiveInt, readFile, readJsonFile, take, type Ctx } from '../context';
import { UsageError } from '../exit-codes';
import { record, table } from '../output';

/** An example as one table row: the call on one line, covered as yes/no. */
const row = (e: IntentionExample) => ({
  id: e.id,
  covered: e.covered ? 'yes' : 'no',
  source: e.source,
  tool: e.tool_call.name,
  arguments: e.tool_call.arguments ?? {},
  created_at: e.created_at,
});
const COLUMNS = ['id', 'covered', 'source', 'tool', 'arguments', 'created_at'];

/**
 * `igw examples`: teach an intention by example (DESIGN 6.15). A call like a covered example is
 * matched to the intention with certainty; a call like a not-covered one never is.
 */
export function registerExamples(program: Command, ctx: Ctx): void {
  const cmd = program.command('examples').description("an intention's examples (calls it covers, or never covers): add, list, rm");
  cmd
    .command('add <intention-id>')
    .description('add an example: calls like it are this intention (certain), or with --not-covered never are')
    .option('--tool <name>', 'the tool name of the example call')
    .option('--args <json>', 'its arguments as a JSON object (@file to read it from a file)')
    .option('--context <json>', 'conversation context: a JSON array of {role, content} (@file)')
    .option('--not-covered', 'a negative example: calls like it are never matched to this intention')
    .option('-f, --file <file>', 'the whole body as JSON {tool_call, conversation_context?, covered} (- for stdin)')
    .action(async (intentionId: string, o: { tool?: string; args?: string; context?: string; notCovered?: boolean; file?: string }) => {
      const body = (o.file ? readJsonFile(o.file) : {}) as Record<string, unknown>;
      if (o.tool !== undefined || o.args !== undefined) {
        const previous = (body['tool_call'] ?? {}) as Record<string, unknown>;
        const args = parseJsonOption('args', o.args);
        body['tool_call'] = { ...previous, ...(o.tool !== undefined ? { name: o.tool } : {}), ...(args ? { arguments: args } : {}) };
      }
      if (o.context !== undefined) body['conversation_context'] = contextOption(o.context);
      if (o.notCovered) body['covered'] = false;
      else if (body['covered'] === undefined) body['covered'] = true;
      const call = body['tool_call'] as Record<string, unknown> | undefined;
      if (!call || typeof call['name'] !== 'string' || !call['name']) throw new UsageError('examples add needs --tool (or a body with -f)');
      const added = await ctx.client().addIntentionExample(intentionId, body as unknown as CreateIntentionExample);
      ctx.print(added, () => record(row(added), COLUMNS));
    });
  cmd
    .command('list <intention-id>')
    .alias('ls')
    .description("list an intention's examples, newest first (every page)")
    .option('--limit <n>', 'at most n', positiveInt('limit'))
    .action(async (intentionId: string, o: { limit?: number }) => {
      const items = await take(ctx.client().intentionExamples(intentionId), o.limit);
      ctx.print({ data: items }, () => table(items.map(row), COLUMNS));
    });
  cmd
    .command('rm <intention-id> <example-id>')
    .description('delete an example (calls like it are classified as before it)')
    .action(async (intentionId: string, exampleId: string) => {
      await ctx.client().removeIntentionExample(intentionId, exampleId);
      ctx.print({ id: exampleId, intention_id: intentionId, removed: true }, () => `Removed ${exampleId}\n`);
    });
}

/** `--context '[{"role":"user","content":"…"}]'`: an array, unlike the other JSON options. */
function contextOption(value: string): unknown[] {
  const text = value.startsWith('@') ? readFile('context', value.slice(1)) : value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError('--context is not valid JSON');
  }
  if (!Array.isArray(parsed)) throw new UsageError('--context must be a JSON array of {role, content}');
  return parsed;
}
