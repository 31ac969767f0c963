import { Command, CommanderError } from 'commander';
import { Ctx } from './context';
import { registerCall, registerEvaluate, registerMandate } from './commands/enforce';
import { registerExamples } from './commands/examples';
import { registerDecisions, registerHistory } from './commands/history';
import { registerReplay } from './commands/replay';
import { registerStats } from './commands/stats';
import { registerApprovals, registerCards, registerIntentions, registerLogin, registerMcpServers } from './commands/manage';
import { EXIT, errorDocument, exitCodeFor } from './exit-codes';
import { json, processIo, type Io } from './output';

const EXIT_HELP = `
Configuration: igw login writes $XDG_CONFIG_HOME/igw/config.json (or ~/.config/igw/config.json;
IGW_CONFIG points elsewhere), mode 0600. IGW_URL and IGW_API_KEY override it; IGW_TIMEOUT_MS sets
the deadline per attempt (default 30000). GET, PUT and DELETE are retried on 429/503 (Retry-After
honoured, 3 attempts); POST never is.

Exit codes: 0 ok · 1 usage · 2 not found (404) · 3 unauthorized/forbidden (401/403) · 4 conflict (409)
· 5 rate limited or unavailable (429/503) · 6 other API error · 7 network (no answer, timeout)
· 8 refused: evaluate denied/pending_approval, call deny/deny_with_reroute/approval/step_up
· 9 replay: the draft would change at least one recorded decision
`;

export function buildProgram(io: Io): { program: Command; ctx: Ctx } {
  const program = new Command('igw');
  const ctx = new Ctx(io, program);
  program
    .description('Intent Gateway from the command line (over @igw/sdk)')
    .version('0.6.0')
    .option('--json', 'print one JSON document (errors too: {"error": {...}})')
    .addHelpText('after', EXIT_HELP)
    .showHelpAfterError('(run igw --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  registerLogin(program, ctx);
  registerIntentions(program, ctx);
  registerExamples(program, ctx);
  registerCards(program, ctx);
  registerMcpServers(program, ctx);
  registerEvaluate(program, ctx);
  registerMandate(program, ctx);
  registerCall(program, ctx);
  registerApprovals(program, ctx);
  registerHistory(program, ctx);
  registerDecisions(program, ctx);
  registerReplay(program, ctx);
  registerStats(program, ctx);
  // Subcommands report usage errors like the program does.
  for (const c of program.commands) {
    c.exitOverride().configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
    for (const sub of c.commands) sub.exitOverride().configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  }
  return { program, ctx };
}

/** Runs `igw` with `argv` (without node and the script); resolves to the exit code. */
export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const { program, ctx } = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      return ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(err.code) || err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (ctx.json) io.out(json(errorDocument(err)));
    else io.err(`igw: ${describe(err)}\n`);
    return exitCodeFor(err);
  }
}

function describe(err: unknown): string {
  const e = errorDocument(err).error;
  const status = e['status'] !== undefined ? `${e['status']} ` : '';
  const details = Array.isArray(e['details'])
    ? ` (${(e['details'] as { path: string; message: string }[]).map((d) => `${d.path}: ${d.message}`).join('; ')})`
    : '';
  return `${status}${e['code']}: ${e['message']}${details}`;
}

if (require.main === module) {
  void run(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
