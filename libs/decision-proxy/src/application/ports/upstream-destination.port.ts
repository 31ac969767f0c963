export const UPSTREAM_DESTINATION = Symbol('UPSTREAM_DESTINATION');

/**
 * Whether an upstream URL's host may be called: private, loopback and link-local destinations are
 * refused unless MCP_UPSTREAMS_ALLOW_PRIVATE=true (DESIGN 6.13, as webhooks).
 */
export interface UpstreamDestinationCheck {
  /** Why calls may not go to this URL (naming `url`), or null. */
  problem(url: string): Promise<string | null>;
}
