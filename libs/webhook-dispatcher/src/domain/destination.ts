/** Whether an address is public is `isPublicAddress` of @igw/http (shared with the MCP upstreams). */
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
