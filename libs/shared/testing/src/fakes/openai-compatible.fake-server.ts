import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { closeFakeHttpServer, playFakeConnection, readFakeRequest, startFakeHttpServer } from './fake-http-server';

/**
 * A local server speaking the OpenAI-compatible HTTP API, for tests (int and e2e): a real
 * `node:http` server on a free loopback port.
 *
 * - `POST /v1/embeddings` `{model, input}` → deterministic embeddings: hashed bag of words
 *   (identifier-split, lower-cased, a few stop words dropped, plural -s stripped, optional
 *   synonym table), L2-normalised, so texts sharing words are close. `data` is returned in
 *   reverse input order: clients must place vectors by `index`, as the API allows.
 * - `POST /v1/chat/completions` → the next scripted reply (`chat(...)`), else `chatHandler`.
 * - Every request is recorded (method, path, headers, parsed body) in `requests`.
 * - With `apiKey`, a request without `Authorization: Bearer <apiKey>` gets 401.
 *
 *   const fake = await OpenAiCompatibleFakeServer.start();
 *   fake.chat({ answer: { intent_label: 'crm.lookup', confidence: 0.9, reason: 'x' } }, { status: 500 });
 *   new OpenAiChatClient({ baseUrl: fake.baseUrl, model: 'fake-chat' });
 *   await fake.close();
 */

/** A raw HTTP reply. */
export type FakeHttpReply =
  | { status?: number; json: unknown; delayMs?: number }
  | { status?: number; text: string; delayMs?: number }
  /** Never answers (the connection stays open until the server closes). */
  | { hang: true }
  /** Closes the connection without an answer. */
  | { destroy: true };

/**
 * A chat reply: a raw HTTP reply, or a completion whose assistant content is `answer` as JSON
 * or the literal `content` (e.g. malformed JSON).
 */
export type FakeChatReply = FakeHttpReply | { answer: unknown; delayMs?: number } | { content: string; delayMs?: number };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (the raw string when it is not JSON). */
  body: unknown;
}

export interface FakeServerOptions {
  /** Embedding dimension (default 1024: few hash collisions between unrelated words). */
  dimensions?: number;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Words mapped onto one another before hashing (`{ wage: 'salary' }`), to fake semantic closeness. */
  synonyms?: Record<string, string>;
}

const STOP = new Set([
  'a',
  'an',
  'and',
  'the',
  'of',
  'to',
  'in',
  'on',
  'for',
  'or',
  'by',
  'with',
  'from',
  'is',
  'are',
  'be',
  'this',
  'that',
  'it',
  'as',
  'at',
  'my',
  'me',
  'i',
  'you',
  'your',
  'please',
]);

function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The words the fake embeds a text by. */
export function fakeEmbeddingWords(text: string, synonyms: Record<string, string> = {}): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 1 && !STOP.has(w))
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w))
    .map((w) => synonyms[w] ?? w);
}

/** The fake's deterministic embedding of one text (unit length; all zeros for a text without words). */
export function fakeEmbedding(text: string, dimensions = 1024, synonyms: Record<string, string> = {}): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const w of fakeEmbeddingWords(text, synonyms)) {
    const h = fnv1a(w);
    v[h % dimensions]! += fnv1a(w, 0x9747b28c) & 1 ? 1 : -1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm > 0 ? v.map((x) => x / norm) : v;
}

export class OpenAiCompatibleFakeServer {
  readonly requests: RecordedRequest[] = [];
  /** The chat answer when no scripted reply is queued. */
  chatHandler: (body: { model?: string; messages?: { role: string; content: string }[] }) => FakeChatReply = () => ({
    answer: { intent_label: 'ambient', confidence: 0.5, reason: 'fake server: no scripted answer' },
  });
  private readonly chatQueue: FakeChatReply[] = [];
  private readonly embeddingsQueue: FakeHttpReply[] = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly options: FakeServerOptions,
  ) {}

  static async start(options: FakeServerOptions = {}): Promise<OpenAiCompatibleFakeServer> {
    return startFakeHttpServer(
      (server, port) => new OpenAiCompatibleFakeServer(server, port, options),
      (fake, req, res) => fake.handle(req, res),
    );
  }

  /** The base URL clients are configured with (`EMBEDDINGS_URL`, `LLM_URL`). */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  get dimensions(): number {
    return this.options.dimensions ?? 1024;
  }

  /** Queues chat replies, used once each in order before `chatHandler` answers again. */
  chat(...replies: FakeChatReply[]): this {
    this.chatQueue.push(...replies);
    return this;
  }

  /** Queues embeddings replies (failures, delays) used once each before the deterministic answer returns. */
  embeddings(...replies: FakeHttpReply[]): this {
    this.embeddingsQueue.push(...replies);
    return this;
  }

  /** The deterministic embedding this server answers for `text`. */
  embed(text: string): number[] {
    return fakeEmbedding(text, this.dimensions, this.options.synonyms);
  }

  /** Recorded requests to one path (`/v1/embeddings`, `/v1/chat/completions`). */
  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Forgets recorded requests and queued replies; restores the default chat handler. */
  reset(): void {
    this.requests.length = 0;
    this.chatQueue.length = 0;
    this.embeddingsQueue.length = 0;
    this.chatHandler = () => ({ answer: { intent_label: 'ambient', confidence: 0.5, reason: 'fake server: no scripted answer' } });
  }

  async close(): Promise<void> {
    await closeFakeHttpServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { path, body } = await readFakeRequest(req);
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });

    if (this.options.apiKey !== undefined && req.headers.authorization !== `Bearer ${this.options.apiKey}`) {
      return this.reply(res, {
        status: 401,
        json: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } },
      });
    }
    if (req.method === 'POST' && path === '/v1/embeddings') return this.reply(res, this.embeddingsQueue.shift() ?? this.embeddingsAnswer(body));
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const reply = this.chatQueue.shift() ?? this.chatHandler((body ?? {}) as Parameters<typeof this.chatHandler>[0]);
      return this.reply(res, this.completion(reply, body));
    }
    return this.reply(res, { status: 404, json: { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } } });
  }

  private embeddingsAnswer(body: unknown): FakeHttpReply {
    const { input, model } = (body ?? {}) as { input?: unknown; model?: unknown };
    const inputs = typeof input === 'string' ? [input] : input;
    if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((t) => typeof t === 'string') || typeof model !== 'string') {
      return {
        status: 400,
        json: { error: { message: "'input' must be a string or a non-empty array of strings and 'model' a string", type: 'invalid_request_error' } },
      };
    }
    const data = (inputs as string[]).map((text, index) => ({ object: 'embedding', index, embedding: this.embed(text) })).reverse();
    const tokens = (inputs as string[]).reduce((n, t) => n + fakeEmbeddingWords(t).length, 0);
    return { json: { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } } };
  }

  private completion(reply: FakeChatReply, body: unknown): FakeHttpReply {
    if (!('answer' in reply) && !('content' in reply)) return reply;
    const content = 'answer' in reply ? JSON.stringify(reply.answer) : reply.content;
    const model = ((body ?? {}) as { model?: unknown }).model ?? 'fake';
    return {
      delayMs: reply.delayMs,
      json: {
        id: `chatcmpl-fake-${this.requests.length}`,
        object: 'chat.completion',
        created: 0,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      },
    };
  }

  private async reply(res: ServerResponse, scripted: FakeHttpReply): Promise<void> {
    const reply = await playFakeConnection(res, scripted);
    if (!reply) return;
    const isJson = 'json' in reply;
    const payload = isJson ? JSON.stringify(reply.json) : reply.text;
    res.writeHead(reply.status ?? 200, { 'content-type': isJson ? 'application/json' : 'text/plain', 'content-length': Buffer.byteLength(payload) });
    res.end(payload);
  }
}
