/** Where the CLI writes: injectable so tests can run it in-process. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  /** The SDK's fetch (unit tests answer in-process); the global fetch when absent. */
  fetch?: (input: Request) => Promise<Response>;
}

export const processIo: Io = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  env: process.env,
};

const cell = (v: unknown): string => {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
};

/** A plain text table: a header row, then one row per item, columns padded. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)\n';
  const cells = [columns.map((c) => c.toUpperCase()), ...rows.map((r) => columns.map((c) => cell(r[c])))];
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => row[i]?.length ?? 0)));
  return cells.map((row) => row.map((v, i) => (i === row.length - 1 ? v : v.padEnd(widths[i] ?? 0))).join('  ')).join('\n') + '\n';
}

/** `key: value` lines for one object. */
export function record(obj: Record<string, unknown>, keys?: string[]): string {
  const ks = keys ?? Object.keys(obj);
  const width = Math.max(...ks.map((k) => k.length));
  return ks.map((k) => `${k.padEnd(width)}  ${cell(obj[k])}`).join('\n') + '\n';
}

export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
