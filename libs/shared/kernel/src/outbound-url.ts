/**
 * The shape rules of a URL the gateway will call out to (webhook endpoints, MCP upstreams),
 * before its host is resolved: absolute http(s), a host, no credentials in it, at most 2048
 * characters. Null when it is acceptable, else the reason (naming `url`).
 */
export function outboundUrlProblem(url: string, options: { credentials?: string; fragment?: boolean } = {}): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'url must use https (or http)';
  if (parsed.username || parsed.password) return `url must not carry credentials${options.credentials ? ` (${options.credentials})` : ''}`;
  if (!parsed.hostname) return 'url must name a host';
  if (options.fragment === false && parsed.hash) return 'url must not have a fragment';
  if (url.length > 2048) return 'url must be at most 2048 characters';
  return null;
}
