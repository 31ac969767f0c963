import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';

type Answer = JSONRPCMessage;

// Structural checks, not the SDK's zod guards: what arrives here was parsed by JSONRPCMessageSchema
// at the HTTP edge, and what the server sends is its own.
const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;
const isAnswer = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId } => 'id' in m && ('result' in m || 'error' in m);

/**
 * The agent side of one MCP session on this replica, as an SDK `Transport`: the session's
 * long-lived SDK `Server` reads the messages of each HTTP POST from here, and each request's
 * answer comes back to the POST that carried it (the JSON answer of Streamable HTTP). Built once
 * per session and replica instead of a server and web-stream transport per request (decision 0020).
 * Server-initiated messages have no stream to go to and are dropped, as the gateway sends none.
 */
export class AgentJsonRpcTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: { authInfo?: AuthInfo }) => void;
  private readonly waiting = new Map<RequestId, (answer: Answer) => void>();

  /** Nothing to open: each message is its own HTTP exchange. */
  start(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    for (const [id, answer] of this.waiting) answer(errorAnswer(id, -32000, 'Connection closed'));
    this.waiting.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!isAnswer(message)) return;
    const id = message.id;
    const answer = this.waiting.get(id);
    this.waiting.delete(id);
    answer?.(message);
  }

  /**
   * Hands the POST's messages to the server; resolves with the answers of its requests, in
   * order. `gone` aborts the requests still waiting (the agent went away): the server is told
   * with `notifications/cancelled`, as an agent would. Nothing is handed over once it is gone.
   */
  async receive(messages: readonly JSONRPCMessage[], authInfo: AuthInfo, gone: AbortSignal): Promise<Answer[]> {
    if (gone.aborted) return [];
    const mine: RequestId[] = [];
    const answers: Promise<Answer>[] = [];
    for (const message of messages) {
      if (isRequest(message)) {
        answers.push(this.request(message, authInfo, mine));
        continue;
      }
      // The agent's own cancel: the server answers nothing, so the request's POST settles here.
      if ('method' in message && message.method === 'notifications/cancelled') this.settle(message.params?.['requestId'], -32800, 'Request cancelled');
      this.onmessage?.(message, { authInfo });
    }
    // One listener per POST, whatever its batch holds.
    const cancel = () => {
      for (const id of mine) {
        if (!this.waiting.has(id)) continue;
        this.onmessage?.(
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the agent closed the request' } },
          { authInfo },
        );
        this.settle(id, -32800, 'Request cancelled');
      }
    };
    gone.addEventListener('abort', cancel, { once: true });
    try {
      return await Promise.all(answers);
    } finally {
      gone.removeEventListener('abort', cancel);
    }
  }

  /** Outstanding requests on this replica (a session with any is not evicted). */
  get busy(): boolean {
    return this.waiting.size > 0;
  }

  private request(message: JSONRPCRequest, authInfo: AuthInfo, mine: RequestId[]): Promise<Answer> {
    const id = message.id;
    // Ids are the agent's to choose; two requests in flight under one id could not be told apart.
    if (this.waiting.has(id)) return Promise.resolve(errorAnswer(id, -32600, `Invalid Request: request ${String(id)} is already in flight`));
    return new Promise<Answer>((resolve) => {
      this.waiting.set(id, resolve);
      mine.push(id);
      this.onmessage?.(message, { authInfo });
    });
  }

  private settle(id: unknown, code: number, message: string): void {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const answer = this.waiting.get(id);
    this.waiting.delete(id);
    answer?.(errorAnswer(id, code, message));
  }
}

const errorAnswer = (id: RequestId, code: number, message: string): Answer => ({ jsonrpc: '2.0', id, error: { code, message } });
