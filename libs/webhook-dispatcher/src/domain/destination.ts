import { outboundUrlProblem } from '@igw/kernel';

/** Whether an address is public is `isPublicAddress` of @igw/http (shared with the MCP upstreams). */
export type UrlProblem = { field: 'url'; message: string };

/** The shape rules of a webhook URL (before any name is resolved); null when it is acceptable. */
export function urlProblem(url: string): string | null {
  return outboundUrlProblem(url);
}
