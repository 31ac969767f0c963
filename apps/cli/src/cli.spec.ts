import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayError, GatewayNetworkError } from '@igw/sdk';
import { configPath, resolveCredentials } from './config';
import { EXIT, UsageError, exitCodeFor } from './exit-codes';
import { run } from './main';
import type { Io } from './output';

const io = (env: NodeJS.ProcessEnv) => {
  const out: string[] = [];
  const err: string[] = [];
  const sink: Io = { out: (t) => void out.push(t), err: (t) => void err.push(t), env };
  return { sink, out, err };
};

describe('igw (in process, no gateway)', () => {
  it('maps errors to the documented exit codes', () => {
    const api = (status: number) => new GatewayError(status, 'x', 'y');
    expect([404, 401, 403, 409, 429, 503, 400, 500].map((s) => exitCodeFor(api(s)))).toEqual([2, 3, 3, 4, 5, 5, 6, 6]);
    expect(exitCodeFor(new GatewayNetworkError('down', false))).toBe(EXIT.network);
    expect(exitCodeFor(new UsageError('bad'))).toBe(EXIT.usage);
  });

  it('login writes the config owner-only (0600) where IGW_CONFIG says; IGW_URL / IGW_API_KEY override it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'igw-cli-'));
    const env = { IGW_CONFIG: join(dir, 'nested', 'config.json') };
    const { sink, out } = io(env);
    expect(await run(['login', '--url', 'http://gw.test:8080/', '--key', 'igw_secret', '--json'], sink)).toBe(0);
    expect(JSON.parse(out.join(''))).toEqual({ url: 'http://gw.test:8080', config: env.IGW_CONFIG });
    expect(statSync(env.IGW_CONFIG).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(env.IGW_CONFIG, 'utf8'))).toEqual({ url: 'http://gw.test:8080', api_key: 'igw_secret' });
    expect(resolveCredentials(env)).toEqual({ url: 'http://gw.test:8080', apiKey: 'igw_secret' });
    expect(resolveCredentials({ ...env, IGW_URL: 'http://other', IGW_API_KEY: 'k2' })).toEqual({ url: 'http://other', apiKey: 'k2' });
    expect(configPath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/igw/config.json');
    expect(configPath({ HOME: '/home/u' })).toBe('/home/u/.config/igw/config.json');
  });

  it('exits 1 for usage errors: unknown command, missing option, bad JSON, no configuration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'igw-cli-'));
    const env = { IGW_CONFIG: join(dir, 'none.json') };
    expect(await run(['frobnicate'], io(env).sink)).toBe(1);
    expect(await run(['evaluate'], io(env).sink)).toBe(1);
    const noConfig = io(env);
    expect(await run(['intentions', 'list'], noConfig.sink)).toBe(1);
    expect(noConfig.err.join('')).toContain('igw login');
    const badJson = io({ ...env, IGW_URL: 'http://127.0.0.1:9', IGW_API_KEY: 'k' });
    expect(await run(['evaluate', '--tool', 't', '--args', '{nope', '--json'], badJson.sink)).toBe(1);
    expect(JSON.parse(badJson.out.join(''))).toEqual({ error: { code: 'usage', message: '--args is not valid JSON' } });
    writeFileSync(join(dir, 'card.json'), '[1]');
    expect(await run(['cards', 'apply', '-f', join(dir, 'card.json')], io({ ...env, IGW_URL: 'http://127.0.0.1:9', IGW_API_KEY: 'k' }).sink)).toBe(1);
    const help = io(env);
    expect(await run(['--help'], help.sink)).toBe(0);
    expect(help.out.join('')).toContain('Exit codes');
  });

  it('exits 7 when nothing answers', async () => {
    const down = io({ IGW_URL: 'http://127.0.0.1:9', IGW_API_KEY: 'k', IGW_CONFIG: '/nonexistent/igw.json' });
    expect(await run(['approvals', 'list', '--json'], down.sink)).toBe(EXIT.network);
    expect(JSON.parse(down.out.join(''))).toMatchObject({ error: { code: 'network_error' } });
  });
});
