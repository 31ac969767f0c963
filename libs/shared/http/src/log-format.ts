import { inspect } from 'node:util';

/** LOG_FORMAT: `json` lines, `pretty` lines for a person, or `auto`: pretty on a terminal only. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The format a process writes: pretty when asked for, or when `auto` and stdout is a terminal. */
export function chooseLogFormat(setting: string | undefined, stdoutIsTty: boolean): 'json' | 'pretty' {
  if (setting === 'json' || setting === 'pretty') return setting;
  return stdoutIsTty ? 'pretty' : 'json';
}

const LEVELS: Record<number, [string, number]> = {
  10: ['TRACE', 90],
  20: ['DEBUG', 36],
  30: ['INFO ', 32],
  40: ['WARN ', 33],
  50: ['ERROR', 31],
  60: ['FATAL', 35],
};
// pino's own fields, shown in the head of the line or not at all.
const HEAD = new Set(['level', 'time', 'msg', 'service', 'name', 'pid', 'hostname']);

/**
 * One pino JSON line as a line for a person: `12:04:05.123 INFO  intent-gateway: message`, then
 * the other fields as `key=value`, and an error's stack on the lines below. A line that is not
 * JSON is passed through.
 */
export function prettyLogLine(json: string, color = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const paint = (code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const [label, code] = LEVELS[entry.level as number] ?? [String(entry.level).padEnd(5), 0];
  const time =
    typeof entry.time === 'string' ? entry.time.slice(11, 23) : typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const who = String(entry.service ?? entry.name ?? '');
  let stack = '';
  const fields: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (HEAD.has(key) || value === undefined) continue;
    const err = value as { stack?: unknown; message?: unknown };
    if (key === 'err' && typeof err?.stack === 'string') {
      stack = `\n    ${err.stack.split('\n').join('\n    ')}`;
      continue;
    }
    fields.push(
      `${paint(2, `${key}=`)}${typeof value === 'string' ? (/[\s"]/.test(value) ? JSON.stringify(value) : value) : inspect(value, { breakLength: Infinity, depth: 4, colors: color })}`,
    );
  }
  const head = [paint(2, time), paint(code, label), who ? paint(1, `${who}:`) : '', String(entry.msg ?? '')].filter(Boolean).join(' ');
  return `${[head, ...fields].join(' ')}${stack}\n`;
}

/** A pino destination that writes each line, made readable, to `out` (stdout by default). */
export function prettyDestination(out: { write(chunk: string): unknown; isTTY?: boolean } = process.stdout): { write(line: string): void } {
  const color = Boolean(out.isTTY) && !process.env.NO_COLOR;
  return {
    write(line: string) {
      out.write(prettyLogLine(line, color));
    },
  };
}
