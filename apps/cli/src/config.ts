import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './exit-codes';

export interface StoredConfig {
  url?: string;
  api_key?: string;
}

/** `IGW_CONFIG`, else `$XDG_CONFIG_HOME/igw/config.json`, else `~/.config/igw/config.json`. */
export function configPath(env: NodeJS.ProcessEnv): string {
  if (env['IGW_CONFIG']) return env['IGW_CONFIG'];
  const base = env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config');
  return join(base, 'igw', 'config.json');
}

export function readConfig(path: string): StoredConfig {
  if (!existsSync(path)) return {};
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return typeof raw === 'object' && raw !== null ? (raw as StoredConfig) : {};
  } catch {
    throw new UsageError(`${path} is not valid JSON: run igw login again`);
  }
}

/** Written owner-only (0600, directory 0700), atomically. */
export function writeConfig(path: string, config: StoredConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** The URL and key in force: `IGW_URL` / `IGW_API_KEY` override the file. */
export function resolveCredentials(env: NodeJS.ProcessEnv): { url: string; apiKey: string } {
  const stored = readConfig(configPath(env));
  const url = env['IGW_URL'] || stored.url;
  const apiKey = env['IGW_API_KEY'] || stored.api_key;
  if (!url || !apiKey) throw new UsageError('no gateway configured: run `igw login --url URL --key KEY` or set IGW_URL and IGW_API_KEY');
  return { url, apiKey };
}
