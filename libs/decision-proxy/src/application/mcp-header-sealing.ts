import type { McpServer } from '../domain';

export const HEADER_SEALER = Symbol('MCP_HEADER_SEALER');

/** Seals the forwarded headers at rest (AES-256-GCM under the proxy's KEK); `kekId` names the KEK. */
export interface HeaderSealer {
  readonly kekId: string;
  seal(plain: Buffer, aad: string): string;
  open(sealed: string, aad: string): Buffer;
}

/** The additional data binding sealed headers to their server: a sealed value cannot be moved to another row. */
const aadOf = (server: Pick<McpServer, 'id'>) => server.id;

export function sealHeaders(sealer: HeaderSealer, serverId: string, headers: Record<string, string>): string {
  return sealer.seal(Buffer.from(JSON.stringify(headers)), aadOf({ id: serverId }));
}

export function openHeaders(sealer: HeaderSealer, server: Pick<McpServer, 'id'>, sealed: string | null): Record<string, string> {
  if (sealed === null) return {};
  return JSON.parse(sealer.open(sealed, aadOf(server)).toString()) as Record<string, string>;
}
