import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** What a POST to `/mcp/{name}` carries, once read as Streamable HTTP (2025-06-18) requires. */
export type McpPost = { messages: JSONRPCMessage[]; batch: boolean } | { status: 400 | 406; code: string; message: string };

const header = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/**
 * Reads a POST's JSON-RPC messages under the rules the SDK's server transport applies: the agent
 * accepts both JSON and SSE answers, a batch holds at most the SDK's limit, every message is
 * JSON-RPC, `initialize` comes alone and only to open a session, and a later request names a
 * protocol version the SDK supports (or none). Content type and body limits were checked by the
 * HTTP edge already.
 */
export function readMcpPost(headers: Record<string, string | string[] | undefined>, body: unknown, opening: boolean): McpPost {
  const accept = header(headers['accept']) ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return { status: 406, code: 'not_acceptable', message: 'accept must list both application/json and text/event-stream (MCP Streamable HTTP)' };
  }
  const batch = Array.isArray(body);
  const raw: unknown[] = batch ? body : [body];
  if (raw.length === 0 || raw.length > MAX_BATCH_SIZE) return invalid(`body must hold 1 to ${MAX_BATCH_SIZE} JSON-RPC messages`);
  const messages: JSONRPCMessage[] = [];
  for (const [i, m] of raw.entries()) {
    const parsed = JSONRPCMessageSchema.safeParse(m);
    if (!parsed.success) return invalid(`${batch ? `body[${i}]` : 'body'} must be a JSON-RPC 2.0 message`);
    messages.push(parsed.data);
  }
  // By method: the server's initialize handler checks the params with the SDK's schema.
  const initializes = messages.filter((m) => 'method' in m && m.method === 'initialize').length;
  if (opening && (initializes !== 1 || messages.length !== 1)) return invalid('a session opens with one initialize request alone');
  if (!opening && initializes > 0) return invalid('this MCP session is already initialized (send initialize without mcp-session-id to open another)');
  const version = header(headers['mcp-protocol-version']);
  if (!opening && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return invalid(`mcp-protocol-version ${version} is not supported (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
  }
  return { messages, batch };
}

const invalid = (message: string): McpPost => ({ status: 400, code: 'invalid_request', message });
