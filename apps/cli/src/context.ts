import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { GatewayClient } from '@igw/sdk';
import { resolveCredentials } from './config';
import { UsageError } from './exit-codes';
import { json, type Io } from './output';

/** What every command gets: where to write, whether to print JSON, and the SDK client. */
export class Ctx {
  /** Set by a command whose answer is a refusal (exit 8) rather than an error. */
  exitCode = 0;
  private cached: GatewayClient | undefined;

  constructor(
    readonly io: Io,
    private readonly program: Command,
  ) {}

  get json(): boolean {
    return Boolean(this.program.opts()['json']);
  }

  client(): GatewayClient {
    if (this.cached) return this.cached;
    const { url, apiKey } = resolveCredentials(this.io.env);
    const timeout = Number(this.io.env['IGW_TIMEOUT_MS'] ?? 30_000);
    this.cached = new GatewayClient({
      baseUrl: url,
      apiKey,
      timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 30_000,
      ...(this.io.fetch ? { fetch: this.io.fetch } : {}),
      onRetry: (e) =>
        this.io.err(`igw: ${e.status} on ${e.method} ${new URL(e.url).pathname}, retrying in ${(e.delayMs / 1000).toFixed(1)} s (attempt ${e.attempt + 1})\n`),
    });
    return this.cached;
  }

  /** The value as one JSON document with --json, else the human rendering. */
  print(value: unknown, human: () => string): void {
    this.io.out(this.json ? json(value) : human());
  }
}

/** A JSON option value (`--args '{"a":1}'`), or `@file` to read it from a file. */
export function parseJsonOption(name: string, value: string | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  const text = value.startsWith('@') ? readFile(name, value.slice(1)) : value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--${name} is not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`--${name} must be a JSON object`);
  return parsed as Record<string, unknown>;
}

export function readFile(what: string, path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${what} file ${path}: ${(err as Error).message}`);
  }
}

/** A JSON body from `-f FILE` (`-` for stdin). */
export function readJsonFile(path: string): Record<string, unknown> {
  const parsed = parseJsonOption('file', `@${path}`);
  if (!parsed) throw new UsageError('-f needs a file');
  return parsed;
}

export const list = (value: string | undefined): string[] | undefined =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer`);
    return n;
  };
}

/** Collects a repeatable option into an array. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** At most `limit` items of an async iterator (all when undefined). */
export async function take<T>(items: AsyncIterable<T>, limit?: number): Promise<T[]> {
  const out: T[] = [];
  if (limit !== undefined && limit <= 0) return out;
  for await (const item of items) {
    out.push(item);
    if (limit !== undefined && out.length >= limit) break;
  }
  return out;
}
