import { fetch as undiciFetch } from 'undici';
import type { LookupAddress } from 'node:dns';
import { destinationProblem, isDestinationRefused, isPublicAddress, safeDispatcher, safeLookup } from './outbound-destination';

describe('isPublicAddress', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '::ffff:5db8:d822',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['10.0.0.1', '10/8'],
    ['10.255.255.255', '10/8'],
    ['172.16.0.1', '172.16/12'],
    ['172.31.255.254', '172.16/12'],
    ['192.168.1.1', '192.168/16'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'CGNAT 100.64/10'],
    ['100.127.255.254', 'CGNAT 100.64/10'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'v6 multicast'],
    ['::1', 'v6 loopback'],
    ['::', 'v6 unspecified'],
    ['fe80::1', 'v6 link-local'],
    ['fe80::', 'v6 link-local'],
    ['fc00::1', 'unique local fc00::/7'],
    ['fd12:3456:789a::1', 'unique local fc00::/7'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback (hex form)'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['2001:db8::1', 'documentation'],
  ])('%s is not public (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  // inet_aton shorthands are read as the address they denote, so loopback stays loopback.
  it.each(['127.1', '0x7f.0.0.1', '0177.0.0.1', '2130706433', '10.1'])('shorthand %p of a non-public address is not public', (text) => {
    expect(isPublicAddress(text)).toBe(false);
  });

  it.each(['', 'localhost', 'example.com', '999.1.1.1', '1.2.3.4.5', '::ffff:999.0.0.1', 'fe80::1%eth0x', '[::1]', 'http://8.8.8.8/'])(
    '%p (not an address) is not public',
    (text) => {
      expect(isPublicAddress(text)).toBe(false);
    },
  );
});

describe('destinationProblem', () => {
  const lookup = ((host: string, _o: unknown, cb: (e: Error | null, a: unknown) => void) =>
    host === 'inside.test' ? cb(null, [{ address: '10.0.0.7', family: 4 }]) : cb(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }), [])) as never;

  it('refuses non-public literals and names, naming the field; allows them when private addresses are allowed', async () => {
    expect(await destinationProblem('http://127.0.0.1:9/mcp', { allowPrivate: false }, 'url')).toBe('url points at 127.0.0.1, which is not a public address');
    expect(await destinationProblem('http://[::1]/x', { allowPrivate: false })).toBe('url points at ::1, which is not a public address');
    expect(await destinationProblem('https://inside.test/x', { allowPrivate: false, lookup })).toBe(
      'url host inside.test resolves to 10.0.0.7, which is not a public address',
    );
    expect(await destinationProblem('https://nowhere.test/x', { allowPrivate: true, lookup })).toBe('url host nowhere.test does not resolve');
    expect(await destinationProblem('http://127.0.0.1:9/mcp', { allowPrivate: true })).toBeNull();
    expect(await destinationProblem('https://inside.test/x', { allowPrivate: true, lookup })).toBeNull();
    expect(await destinationProblem('https://93.184.216.34/x', { allowPrivate: false })).toBeNull();
  });
});

/** IPv6 forms that embed a non-public IPv4 address or lie in special-purpose ranges (issue 29). */
const SPECIAL_IPV6 = ['::127.0.0.1', '::1.2.3.4', '64:ff9b:1::7f00:1', 'fec0::1', '2002:7f00:1::1', '2001:0:4136:e378:8000:63bf:80ff:fffe', '3fff::1'];

describe('IPv6 special-purpose and IPv4-embedding forms, at registration and at connect time', () => {
  it.each(SPECIAL_IPV6)('destinationProblem refuses the literal [%s]', async (address) => {
    expect(await destinationProblem(`http://[${address}]/mcp`, { allowPrivate: false }, 'url')).toMatch(/^url points at .+, which is not a public address$/);
  });

  it.each(SPECIAL_IPV6)('destinationProblem refuses a name resolving to %s', async (address) => {
    const lookup = ((_h: string, _o: unknown, cb: (e: null, a: LookupAddress[]) => void) => cb(null, [{ address, family: 6 }])) as never;
    expect(await destinationProblem('https://sneaky.test/hook', { allowPrivate: false, lookup })).toMatch(
      /^url host sneaky.test resolves to .+, which is not a public address$/,
    );
  });

  it.each(SPECIAL_IPV6)('safeLookup refuses a name resolving to %s when connecting', (address) => {
    const resolve = ((_h: string, _o: unknown, cb: (e: null, a: LookupAddress[]) => void) => cb(null, [{ address, family: 6 }])) as never;
    const callback = jest.fn();
    safeLookup(false, resolve)('sneaky.test', { all: true }, callback);
    expect(callback.mock.calls[0]![0]).toBeInstanceOf(Error);
    expect(isDestinationRefused(callback.mock.calls[0]![0])).toBe(true);
  });

  it('safeLookup keeps public IPv6 forms, including a public IPv4 behind NAT64', () => {
    const list = ['2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '64:ff9b:1::7f00:1'].map((address) => ({ address, family: 6 }));
    const resolve = ((_h: string, _o: unknown, cb: (e: null, a: LookupAddress[]) => void) => cb(null, list)) as never;
    const callback = jest.fn();
    safeLookup(false, resolve)('mixed.test', { all: true }, callback);
    expect(callback).toHaveBeenCalledWith(null, list.slice(0, 3));
  });
});

describe('safeDispatcher', () => {
  it('refuses a private IP literal before connecting', async () => {
    const agent = safeDispatcher({ allowPrivate: false, timeoutMs: 1000 });
    try {
      const err = await undiciFetch('http://127.0.0.1:8999/x', { dispatcher: agent }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDestinationRefused(err)).toBe(true);
      expect((err as { cause: Error }).cause.message).toBe('destination 127.0.0.1 is not a public address');
    } finally {
      await agent.close();
    }
  });

  it('refuses an IPv4-compatible IPv6 literal of loopback before connecting', async () => {
    const agent = safeDispatcher({ allowPrivate: false, timeoutMs: 1000 });
    try {
      const err = await undiciFetch('http://[::127.0.0.1]:8999/x', { dispatcher: agent }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDestinationRefused(err)).toBe(true);
      expect((err as { cause: Error }).cause.message).toBe('destination ::7f00:1 is not a public address');
    } finally {
      await agent.close();
    }
  });
});
