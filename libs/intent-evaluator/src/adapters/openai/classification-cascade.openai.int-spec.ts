import { Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { IntentionEventV1, PolicyRegistryApi } from '@igw/contracts';
import type { VersionBoard } from '@igw/events';
import { ClassificationCascade, type CascadeOrg, type ClassificationCascadeOverrides } from '../../application/classification';
import { ActiveIntentionsReadModel, type OrgIntentions } from '../../application/read-model/active-intentions.read-model';
import { parseConfig } from '@igw/config';
import { classificationProviders, EvaluatorConfig } from '../../evaluator.config';
import { OpenAiChatClient } from './openai-chat.client';
import { OpenAiEmbeddingsClient } from './openai-embeddings.client';
import { OpenAiCompatibleFakeServer } from '@igw/testing';

const KEY = 'sk-cascade-test-key-0123456789';

const intention = (
  id: string,
  label: string,
  intentClass: IntentionEventV1['intent_class'],
  displayName: string,
  description: string,
  paths: string[],
  source: string,
  orgVersion: number,
) =>
  ({
    id,
    label,
    display_name: displayName,
    description,
    intent_class: intentClass,
    status: 'active',
    approval_required: false,
    ttl_minutes: 15,
    data_elements: paths.map((path) => ({ data_source_id: source, path })),
    version: 1,
    org_version: orgVersion,
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
  }) as IntentionEventV1;

const INTENTIONS = [
  intention(
    'i1',
    'crm.customer_lookup',
    'lookup',
    'Customer lookup',
    'Look up a customer account or contact in the CRM by name or email.',
    ['contacts.email', 'contacts.name'],
    'hubspot',
    1,
  ),
  intention(
    'i2',
    'billing.invoice_lookup',
    'lookup',
    'Invoice lookup',
    'Retrieve an invoice or the invoice history of a customer from Stripe.',
    ['invoices.amount_due', 'invoices.status'],
    'stripe',
    2,
  ),
  intention(
    'i3',
    'comms.email_send',
    'write',
    'Send email',
    "Compose and send an email from the user's Gmail account.",
    ['messages.to', 'messages.body'],
    'gmail',
    3,
  ),
];

/** The real read model, fed by a fake registry and version board. */
async function orgWithIntentions(): Promise<OrgIntentions> {
  const board: VersionBoard = { current: async () => 3, advance: async () => undefined };
  const registry: Pick<PolicyRegistryApi, 'activeIntentions' | 'orgsWith'> = {
    activeIntentions: async () => ({ version: 3, intentions: INTENTIONS }),
    orgsWith: async () => ({ org_ids: ['org_1'] }),
  };
  const org = await new ActiveIntentionsReadModel(board, registry).forOrg('org_1');
  return org;
}

/** The same org with a lexical layer that is never confident, so the later layers always run. */
const unsure = (org: OrgIntentions): CascadeOrg => ({
  orgId: org.orgId,
  get size() {
    return org.size;
  },
  intention: (id) => org.intention(id),
  documents: () => org.documents(),
  bound: () => org.bound(),
  named: (k) => org.named(k),
  examples: org.examples,
  search: (q, k) => org.search(q, k),
  classifier: { classify: (input) => ({ ...org.classifier.classify(input), confident: false }) },
});

// "bill" and "invoice" share no letters: only the (fake) embedding model bridges them.
const BILL_CALL = {
  toolName: 'stripe.getBill',
  arguments: { bill_id: 'in_1PqR2' },
  conversationContext: [{ role: 'user', content: 'How much was the last bill?' }],
};

describe('ClassificationCascade with the OpenAI-compatible clients against the fake server', () => {
  let fake: OpenAiCompatibleFakeServer;
  let org: CascadeOrg;
  const closers: (() => Promise<void>)[] = [];

  const cascade = (options: ClassificationCascadeOverrides = {}, layers: { embedding?: boolean; llm?: boolean } = {}) => {
    const embedding =
      layers.embedding === false
        ? undefined
        : new OpenAiEmbeddingsClient({ baseUrl: fake.baseUrl, model: 'fake-embed', apiKey: KEY, timeoutMs: options.embeddingTimeoutMs ?? 1000 });
    const chat =
      layers.llm === false
        ? undefined
        : new OpenAiChatClient({ baseUrl: fake.baseUrl, model: 'fake-chat', apiKey: KEY, timeoutMs: options.llmTimeoutMs ?? 1000 });
    for (const c of [embedding, chat]) if (c) closers.push(() => c.onModuleDestroy());
    // Bag-of-words similarities are lower than a real model's: a lower floor.
    return new ClassificationCascade(embedding, chat, { embeddingCalibration: { floor: 0.15 }, ...options });
  };

  beforeAll(async () => {
    fake = await OpenAiCompatibleFakeServer.start({ apiKey: KEY, synonyms: { bill: 'invoice' } });
    org = unsure(await orgWithIntentions());
  });
  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    fake.reset();
    jest.restoreAllMocks();
  });
  afterAll(async () => {
    await Promise.all(closers.map((c) => c()));
    await fake.close();
  });

  it('the embedding layer decides what words alone cannot, in one request, then from its cache', async () => {
    const c = cascade({}, { llm: false });
    const r = await c.classify(org, BILL_CALL);
    expect(r.decision).toEqual({ kind: 'intention', intentionId: 'i2', label: 'billing.invoice_lookup', intentClass: 'lookup' });
    expect(r.evidence).toMatchObject({ classification_method: 'embedding', evaluation_layers_consulted: ['lexical', 'embedding'], schema_version: 1 });
    expect(r.evidence.supporting_evidence[0]).toMatchObject({ intent_label: 'billing.invoice_lookup', similarity: expect.any(Number) });
    const [req] = fake.requestsTo('/v1/embeddings');
    expect((req!.body as { input: string[] }).input).toHaveLength(4); // the call + 3 intentions
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);

    await c.classify(org, BILL_CALL);
    expect(fake.requestsTo('/v1/embeddings')).toHaveLength(1);
  });

  it('the llm decides when the embedding layer is not confident: JSON mode, temperature 0, candidates in the system message', async () => {
    fake.chat({ answer: { intent_label: 'billing.invoice_lookup', confidence: 0.91, reason: 'a bill is an invoice' } });
    const r = await cascade({ embeddingConfidentAt: 1.01 }).classify(org, BILL_CALL);
    expect(r.decision).toMatchObject({ kind: 'intention', label: 'billing.invoice_lookup' });
    expect(r.evidence).toMatchObject({
      classification_method: 'llm',
      evaluation_layers_consulted: ['lexical', 'embedding', 'llm'],
      confidence: 0.91,
      llm_reason: 'a bill is an invoice',
    });
    const [req] = fake.requestsTo('/v1/chat/completions');
    const body = req!.body as { model: string; messages: { role: string; content: string }[]; response_format: unknown; temperature: number };
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(body).toMatchObject({ model: 'fake-chat', response_format: { type: 'json_object' }, temperature: 0 });
    expect(body.messages[0]!.content).toContain('"label":"billing.invoice_lookup"');
    expect(body.messages[1]!.content).toContain('"tool_name":"stripe.getBill"');
  });

  it.each([
    ['a 500', { status: 500, json: { error: { message: 'overloaded' } } }, { reason: 'http_error', status: 500 }],
    ['malformed JSON', { content: 'Sure! The label is billing.invoice_lookup' }, { reason: 'malformed_response' }],
    ['an unknown label', { answer: { intent_label: 'billing.refund', confidence: 0.99, reason: 'x' } }, { reason: 'invalid_answer' }],
    ['a slow answer', { delayMs: 1500, answer: { intent_label: 'billing.invoice_lookup', confidence: 0.99 } }, { reason: 'timeout' }],
  ])('a failing llm (%s) leaves the embedding decision, with the error recorded', async (_name, reply, error) => {
    fake.chat(reply);
    const started = Date.now();
    const r = await cascade({ embeddingConfidentAt: 1.01, llmTimeoutMs: 200 }).classify(org, BILL_CALL);
    expect(Date.now() - started).toBeLessThan(1200);
    expect(r.decision).toMatchObject({ label: 'billing.invoice_lookup' });
    expect(r.evidence).toMatchObject({
      classification_method: 'embedding',
      evaluation_layers_consulted: ['lexical', 'embedding', 'llm'],
      layer_errors: [{ layer: 'llm', ...error }],
    });
  });

  it('a failing embeddings endpoint leaves the lexical decision and the llm still runs', async () => {
    fake.embeddings({ status: 503, json: { error: { message: 'down' } } });
    fake.chat({ answer: { intent_label: 'ambient', confidence: 0.6, reason: 'unclear' } });
    const r = await cascade().classify(org, { toolName: 'get_weather', arguments: { city: 'Berlin' } });
    expect(r.decision).toEqual({ kind: 'ambient', label: 'ambient', intentClass: 'other' });
    expect(r.evidence).toMatchObject({ classification_method: 'llm', layer_errors: [{ layer: 'embedding', reason: 'http_error', status: 503 }] });
  });

  it('ambient when no intention is close enough', async () => {
    const r = await cascade({}, { llm: false }).classify(org, { toolName: 'spotify_play', arguments: { track: 'x' } });
    expect(r.decision).toEqual({ kind: 'ambient', label: 'ambient', intentClass: 'other' });
    expect(r.evidence.classification_method).toBe('embedding');
  });

  it('classificationProviders: clients only for configured endpoints; Nest resolves the cascade with them', async () => {
    const resolve = async (env: Record<string, string>) => {
      const config = parseConfig(EvaluatorConfig, env);
      // Overrides pass through to the cascade options; here the embedding layer never stops the cascade.
      @Module({ providers: [...classificationProviders(config, { embeddingConfidentAt: 1.01 }), ClassificationCascade] })
      class TestModule {}
      const app = await NestFactory.createApplicationContext(TestModule, { logger: false });
      const c = app.get(ClassificationCascade);
      return { c, close: () => app.close() };
    };
    const none = await resolve({});
    expect(none.c.layers).toEqual(['lexical']);
    await none.close();

    const both = await resolve({
      EMBEDDINGS_URL: fake.baseUrl,
      EMBEDDINGS_API_KEY: KEY,
      LLM_URL: fake.baseUrl,
      LLM_API_KEY: KEY,
      LLM_MODEL: 'fake-chat',
      LLM_TIMEOUT_MS: '1234',
    });
    expect(both.c.layers).toEqual(['lexical', 'embedding', 'llm']);
    expect(both.c.options.llmTimeoutMs).toBe(1234);
    expect(both.c.options.embeddingTimeoutMs).toBe(2000);
    fake.chat({ answer: { intent_label: 'billing.invoice_lookup', confidence: 0.8, reason: 'r' } });
    const r = await both.c.classify(org, { toolName: 'do_thing' });
    expect(r.evidence.evaluation_layers_consulted).toEqual(['lexical', 'embedding', 'llm']);
    expect(fake.requestsTo('/v1/embeddings')[0]!.body).toMatchObject({ model: 'text-embedding-3-small' });
    expect(fake.requestsTo('/v1/chat/completions')[0]!.body).toMatchObject({ model: 'fake-chat' });
    await both.close(); // closes the clients' pools (onModuleDestroy)
  });

  it('rejects bad settings with one clear message', () => {
    expect(() => parseConfig(EvaluatorConfig, { EMBEDDINGS_URL: 'api.openai.com' })).toThrow(/EMBEDDINGS_URL must be an http\(s\):\/\/ base URL/);
    expect(() => parseConfig(EvaluatorConfig, { LLM_TIMEOUT_MS: 'soon' })).toThrow(/LLM_TIMEOUT_MS must be an integer/);
  });
});
