import ipaddr from 'ipaddr.js';

/**
 * Whether a webhook may be sent to this IP address: only public unicast addresses. Private
 * (RFC 1918, unique local fc00::/7), loopback, link-local (incl. 169.254.169.254 cloud metadata),
 * carrier-grade NAT, unspecified, multicast, broadcast and reserved ranges are refused, and an
 * IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

export type UrlProblem = { field: 'url'; message: string };

/** The shape rules of a webhook URL (before any name is resolved); null when it is acceptable. */
export function urlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'url must use https (or http)';
  if (parsed.username || parsed.password) return 'url must not carry credentials';
  if (!parsed.hostname) return 'url must name a host';
  if (url.length > 2048) return 'url must be at most 2048 characters';
  return null;
}
