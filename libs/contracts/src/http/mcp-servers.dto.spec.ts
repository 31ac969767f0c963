import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { mcpHeadersProblem, RegisterMcpServerDto } from './mcp-servers.dto';

/** The messages class-validator gives (the global pipe answers the first as `message`, naming the field). */
async function problems(body: Record<string, unknown>): Promise<string[]> {
  const errors = await validate(plainToInstance(RegisterMcpServerDto, body), { whitelist: true, forbidNonWhitelisted: true });
  return errors.flatMap((e) => Object.values(e.constraints ?? {}));
}

describe('RegisterMcpServerDto', () => {
  const ok = { name: 'crm-tools_2', url: 'https://mcp.example.com/mcp' };

  it('accepts a minimal body and one with headers and shadow', async () => {
    expect(await problems(ok)).toEqual([]);
    expect(await problems({ ...ok, headers: { Authorization: 'Bearer x', 'X-Api-Key': 'k' }, shadow: true })).toEqual([]);
  });

  it.each(['', 'Crm', '-crm', 'crm.tools', 'a'.repeat(64), 'crm tools'])('refuses the name %p naming name', async (name) => {
    expect((await problems({ ...ok, name }))[0]).toMatch(/^name /);
  });

  it('accepts a 63-character name', async () => {
    expect(await problems({ ...ok, name: 'a'.repeat(63) })).toEqual([]);
  });

  it('refuses a url that is missing, not a string or too long, naming url', async () => {
    expect((await problems({ ...ok, url: 5 }))[0]).toMatch(/^url /);
    expect((await problems({ ...ok, url: `https://x.example.com/${'a'.repeat(2048)}` }))[0]).toBe('url must be at most 2048 characters');
  });

  it('refuses a non-boolean shadow', async () => {
    expect(await problems({ ...ok, shadow: 'yes' })).toEqual(['shadow must be a boolean']);
  });

  it.each([
    [[], 'headers must be an object of header names to string values'],
    ['x', 'headers must be an object of header names to string values'],
    [{ 'Bad Name': 'v' }, 'headers names must be HTTP header names (a token of at most 256 characters)'],
    [{ 'x-ok': 5 }, 'headers.x-ok must be a string'],
    [{ 'x-ok': 'a'.repeat(8193) }, 'headers.x-ok must be at most 8192 characters'],
    [{ 'x-ok': 'a\r\nInjected: 1' }, 'headers.x-ok must not contain control characters'],
    [{ Host: 'evil' }, 'headers must not set host: the proxy sets it itself'],
    [{ 'Mcp-Session-Id': 's' }, 'headers must not set mcp-session-id: the proxy sets it itself'],
    [{ 'X-A': '1', 'x-a': '2' }, 'headers names x-a more than once'],
    [Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`x-h${i}`, 'v'])), 'headers must have at most 32 entries'],
  ])('refuses headers %p', async (headers, message) => {
    expect(await problems({ ...ok, headers })).toEqual([message]);
  });

  it('accepts 32 headers and an 8192-character value', async () => {
    expect(await problems({ ...ok, headers: Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`x-h${i}`, 'v'])) })).toEqual([]);
    expect(mcpHeadersProblem({ 'x-ok': 'a'.repeat(8192) })).toBeNull();
  });
});
