import { createServer } from 'node:net';
import { ModelEndpointError } from '../../application/classification/model-endpoint.error';
import { OpenAiChatClient } from './openai-chat.client';
import { OpenAiEmbeddingsClient } from './openai-embeddings.client';
import { OpenAiCompatibleFakeServer, rejectionOf } from '@igw/testing';

const KEY = 'sk-test-0123456789abcdefghijklmnop';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function failure(work: Promise<unknown>): Promise<ModelEndpointError> {
  const err = await rejectionOf(work, ModelEndpointError);
  expect(err.message).not.toContain(KEY);
  return err;
}

describe('OpenAI-compatible clients against the fake server', () => {
  let fake: OpenAiCompatibleFakeServer;
  const clients: { onModuleDestroy(): Promise<void> }[] = [];
  const embeddings = (options: Partial<ConstructorParameters<typeof OpenAiEmbeddingsClient>[0]> = {}) => {
    const c = new OpenAiEmbeddingsClient({ baseUrl: fake.baseUrl, model: 'fake-embed', apiKey: KEY, timeoutMs: 1000, ...options });
    clients.push(c);
    return c;
  };
  const chat = (options: Partial<ConstructorParameters<typeof OpenAiChatClient>[0]> = {}) => {
    const c = new OpenAiChatClient({ baseUrl: fake.baseUrl, model: 'fake-chat', apiKey: KEY, timeoutMs: 1000, ...options });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    fake = await OpenAiCompatibleFakeServer.start({ apiKey: KEY });
  });
  afterEach(() => fake.reset());
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.onModuleDestroy()));
    await fake.close();
  });

  describe('OpenAiEmbeddingsClient', () => {
    it('posts {model, input} with the bearer key and places the vectors by index', async () => {
      const texts = ['look up a customer', 'send an email', 'customer lookup'];
      const vectors = await embeddings().embed(texts);
      expect(vectors).toEqual(texts.map((t) => fake.embed(t))); // the fake answers in reverse order
      const [req] = fake.requestsTo('/v1/embeddings');
      expect(req!.method).toBe('POST');
      expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(req!.headers['content-type']).toBe('application/json');
      expect(req!.body).toEqual({ model: 'fake-embed', input: texts });
      // Similar texts are close in the fake's space.
      const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
      expect(cos(vectors[0]!, vectors[2]!)).toBeGreaterThan(cos(vectors[0]!, vectors[1]!));
    });

    it('sends no Authorization header without a key (and the fake then refuses: http_error 401)', async () => {
      const err = await failure(embeddings({ apiKey: undefined }).embed(['x']));
      expect(fake.requests[0]!.headers.authorization).toBeUndefined();
      expect(err).toMatchObject({ failure: 'http_error', status: 401 });
    });

    it('splits long inputs into batches of maxBatch', async () => {
      const texts = Array.from({ length: 5 }, (_, i) => `text number ${i} word${i}`);
      const vectors = await embeddings({ maxBatch: 2 }).embed(texts);
      expect(vectors).toEqual(texts.map((t) => fake.embed(t)));
      expect(fake.requestsTo('/v1/embeddings').map((r) => (r.body as { input: string[] }).input.length)).toEqual([2, 2, 1]);
    });

    it('answers [] for no texts without a request', async () => {
      expect(await embeddings().embed([])).toEqual([]);
      expect(fake.requests).toHaveLength(0);
    });

    it.each([
      ['a 500', { status: 500, json: { error: { message: 'boom' } } }, { failure: 'http_error', status: 500 }],
      ['a body that is not JSON', { text: 'upstream hiccup' }, { failure: 'malformed_response' }],
      ['too few embeddings', { json: { data: [{ index: 0, embedding: [1, 0] }] } }, { failure: 'malformed_response' }],
      [
        'a repeated index',
        {
          json: {
            data: [
              { index: 0, embedding: [1, 0] },
              { index: 0, embedding: [0, 1] },
            ],
          },
        },
        { failure: 'malformed_response' },
      ],
      [
        'base64 instead of floats',
        {
          json: {
            data: [
              { index: 0, embedding: 'AAAA' },
              { index: 1, embedding: 'AAAA' },
            ],
          },
        },
        { failure: 'malformed_response' },
      ],
      [
        'vectors of two dimensions',
        {
          json: {
            data: [
              { index: 0, embedding: [1, 0] },
              { index: 1, embedding: [1, 0, 0] },
            ],
          },
        },
        { failure: 'malformed_response' },
      ],
      ['a dropped connection', { destroy: true as const }, { failure: 'network_error' }],
    ])('%s → ModelEndpointError', async (_name, reply, expected) => {
      fake.embeddings(reply);
      expect(await failure(embeddings().embed(['a', 'b']))).toMatchObject(expected);
    });

    it('gives up after its timeout (slow answer or none at all)', async () => {
      fake.embeddings({ delayMs: 1500, json: { data: [] } }, { hang: true });
      const started = Date.now();
      expect(await failure(embeddings({ timeoutMs: 150 }).embed(['a']))).toMatchObject({ failure: 'timeout' });
      expect(await failure(embeddings({ timeoutMs: 5000 }).embed(['a'], { timeoutMs: 150 }))).toMatchObject({ failure: 'timeout' });
      expect(Date.now() - started).toBeLessThan(1200);
    });

    it('an unreachable endpoint is a network_error', async () => {
      const client = new OpenAiEmbeddingsClient({ baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, model: 'm', apiKey: KEY });
      clients.push(client);
      expect(await failure(client.embed(['a']))).toMatchObject({ failure: 'network_error' });
    });
  });

  describe('OpenAiChatClient', () => {
    const messages = [
      { role: 'system' as const, content: 'Answer in JSON.' },
      { role: 'user' as const, content: 'hello' },
    ];

    it('posts {model, messages, response_format: json_object, temperature: 0} with the bearer key and parses the content', async () => {
      fake.chat({ answer: { intent_label: 'crm.lookup', confidence: 0.9, reason: 'r' } });
      expect(await chat().completeJson(messages, { timeoutMs: 1000 })).toEqual({ intent_label: 'crm.lookup', confidence: 0.9, reason: 'r' });
      const [req] = fake.requestsTo('/v1/chat/completions');
      expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(req!.body).toEqual({ model: 'fake-chat', messages, response_format: { type: 'json_object' }, temperature: 0 });
    });

    it.each([
      ['content that is not JSON', { content: '{"intent_label": "crm.lookup",' }, { failure: 'malformed_response' }],
      ['no choices', { json: { choices: [] } }, { failure: 'malformed_response' }],
      ['a null content (refusal)', { json: { choices: [{ message: { content: null, refusal: 'no' } }] } }, { failure: 'malformed_response' }],
      ['a 500', { status: 500, json: { error: { message: 'overloaded' } } }, { failure: 'http_error', status: 500 }],
      ['a 429', { status: 429, json: { error: { message: 'rate limited' } } }, { failure: 'http_error', status: 429 }],
      ['a dropped connection', { destroy: true as const }, { failure: 'network_error' }],
    ])('%s → ModelEndpointError', async (_name, reply, expected) => {
      fake.chat(reply);
      expect(await failure(chat().completeJson(messages, { timeoutMs: 1000 }))).toMatchObject(expected);
    });

    it('gives up after the timeout it is given', async () => {
      fake.chat({ delayMs: 1500, answer: { intent_label: 'crm.lookup', confidence: 1 } });
      const started = Date.now();
      expect(await failure(chat().completeJson(messages, { timeoutMs: 150 }))).toMatchObject({ failure: 'timeout' });
      expect(Date.now() - started).toBeLessThan(1000);
    });
  });
});
