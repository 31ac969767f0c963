import ipaddr from 'ipaddr.js';

/**
 * Whether an IP address is a public destination for tenant-chosen outbound calls (webhook
 * endpoints, MCP upstreams). Used at registration, for IP literals before connecting, and on
 * every resolved address at connect time.
 *
 * IPv4: only public unicast (ipaddr.js `unicast`): private, loopback, link-local (incl.
 * 169.254.169.254 cloud metadata), carrier-grade NAT, unspecified, multicast, broadcast,
 * documentation and reserved ranges are refused.
 *
 * IPv6: an address that embeds or translates an IPv4 address (IPv4-mapped, IPv4-translated,
 * NAT64, 6to4, Teredo, ISATAP) is public only when every IPv4 address it carries is; any other
 * address must be global unicast (2000::/3) outside the special-purpose ranges of the IANA IPv6
 * registry. Everything outside 2000::/3 is refused, so loopback, unspecified, the deprecated
 * IPv4-compatible ::/96, discard, unique-local, link-local, site-local, multicast and
 * unassigned space are.
 */
export function isPublicAddress(address: string): boolean {
  const text = IPV4_COMPATIBLE_SHORT.test(address) ? `::0:${address.slice(2)}` : address;
  if (!ipaddr.isValid(text)) return false;
  const parsed = ipaddr.parse(text);
  return parsed.kind() === 'ipv4' ? isPublicIPv4(parsed as ipaddr.IPv4) : isPublicIPv6(parsed as ipaddr.IPv6);
}

/**
 * `::a.b.c.d`: ipaddr.js reads this as the IPv4-mapped `::ffff:a.b.c.d`, but it is the
 * IPv4-compatible `::a.b.c.d` (RFC 4291 §2.5.5.1) that a socket connects to; `::0:a.b.c.d` is
 * the same address and ipaddr.js reads it right.
 */
const IPV4_COMPATIBLE_SHORT = /^::[^:]*\.[^:]*$/;

const isPublicIPv4 = (address: ipaddr.IPv4): boolean => address.range() === 'unicast';

type Cidr = [ipaddr.IPv6, number];
const cidr = (text: string): Cidr => ipaddr.IPv6.parseCIDR(text);
const ipv4 = (bytes: number[]): ipaddr.IPv4 => new ipaddr.IPv4(bytes);

/** RFC 6052 §2.2: where the IPv4 address sits behind a NAT64 prefix of each length (byte 8 is the "u" octet). */
type Nat64PrefixLength = 32 | 40 | 48 | 56 | 64 | 96;
const NAT64_LAYOUTS: Record<Nat64PrefixLength, readonly number[]> = {
  32: [4, 5, 6, 7],
  40: [5, 6, 7, 9],
  48: [6, 7, 9, 10],
  56: [7, 9, 10, 11],
  64: [9, 10, 11, 12],
  96: [12, 13, 14, 15],
};
// (An IPv6 address always has 16 bytes; a missing one would read as 0, never as public.)
const nat64 = (bytes: number[], prefixLength: Nat64PrefixLength): ipaddr.IPv4 => ipv4(NAT64_LAYOUTS[prefixLength].map((i) => bytes[i] ?? 0));

/**
 * IPv6 prefixes whose addresses stand for IPv4 addresses: the IPv4 addresses an address under
 * the prefix may reach (all must be public).
 */
const EMBEDDING: [Cidr, (bytes: number[]) => ipaddr.IPv4[]][] = [
  // IPv4-mapped ::ffff:0:0/96 and IPv4-translated ::ffff:0:0:0/96 (RFC 6145). (IPv4-compatible
  // ::/96 is deprecated (RFC 4291) and refused whatever it carries: it lies outside 2000::/3.)
  [cidr('::ffff:0:0/96'), (b) => [nat64(b, 96)]],
  [cidr('::ffff:0:0:0/96'), (b) => [nat64(b, 96)]],
  // NAT64 well-known prefix (RFC 6052).
  [cidr('64:ff9b::/96'), (b) => [nat64(b, 96)]],
  // Local-use NAT64 (RFC 8215): the operator picks a prefix of 48 bits or more, so every layout counts.
  [cidr('64:ff9b:1::/48'), (b) => ([48, 56, 64, 96] as const).map((length) => nat64(b, length))],
  // 6to4 (RFC 3056): 2002:AABB:CCDD::/48 is the site behind A.B.C.D.
  [cidr('2002::/16'), (b) => [ipv4(b.slice(2, 6))]],
  // Teredo (RFC 4380): server IPv4 in bits 32-63, client IPv4 (obfuscated: XOR 0xffffffff) in the last 32.
  [cidr('2001::/32'), (b) => [ipv4(b.slice(4, 8)), ipv4(b.slice(12, 16).map((x) => x ^ 0xff))]],
];

/** Global unicast space; anything outside it is not a public destination. */
const GLOBAL_UNICAST = cidr('2000::/3');

/** Special-purpose ranges inside 2000::/3 (IANA IPv6 Special-Purpose Address Registry) that are refused. */
const SPECIAL_GLOBAL: Cidr[] = [
  // IETF protocol assignments (RFC 2928): benchmarking 2001:2::/48, AMT, AS112, ORCHID 2001:10::/28 and 2001:20::/28, DETs, anycast services.
  cidr('2001::/23'),
  // Documentation (RFC 3849, RFC 9637).
  cidr('2001:db8::/32'),
  cidr('3fff::/20'),
  // AS112 delegation (RFC 7534): DNS sinks, never an upstream.
  cidr('2620:4f:8000::/48'),
];

/** ISATAP interface identifiers (RFC 5214): ::0:5efe:a.b.c.d and ::200:5efe:a.b.c.d under any /64. */
const isatapIPv4 = (b: number[]): ipaddr.IPv4 | null =>
  (b[8] === 0x00 || b[8] === 0x02) && b[9] === 0x00 && b[10] === 0x5e && b[11] === 0xfe ? ipv4(b.slice(12, 16)) : null;

function isPublicIPv6(address: ipaddr.IPv6): boolean {
  const bytes = address.toByteArray();
  const embedding = EMBEDDING.find(([range]) => address.match(range));
  if (embedding) return embedding[1](bytes).every(isPublicIPv4);
  if (!address.match(GLOBAL_UNICAST) || SPECIAL_GLOBAL.some((range) => address.match(range))) return false;
  const isatap = isatapIPv4(bytes);
  return isatap === null || isPublicIPv4(isatap);
}
