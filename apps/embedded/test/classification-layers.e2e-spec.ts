import { client, OpenAiCompatibleFakeServer, startEmbeddedSystem, type Client, type TestSystem } from '@igw/testing';

/**
 * The cascade over HTTP with its optional layers configured against a local server speaking the
 * OpenAI-compatible API: a call the lexical layer is unsure about is decided by the llm layer,
 * and a failing or slow endpoint falls back to the lexical decision instead of failing the call.
 */
describe('classification layers (embedded, OpenAI-compatible endpoints)', () => {
  let fake: OpenAiCompatibleFakeServer;
  let sys: TestSystem;
  let admin: Client;
  // No verb and nouns both intentions share: lexically a near tie.
  const ambiguous = { tool_call: { name: 'crm_contacts', arguments: { region: 'emea' } } };

  beforeAll(async () => {
    fake = await OpenAiCompatibleFakeServer.start({ apiKey: 'sk-test-llm' });
    sys = await startEmbeddedSystem({ env: { LLM_URL: fake.baseUrl, LLM_API_KEY: 'sk-test-llm', LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: '500' } });
    admin = client(sys.url, sys.adminKey);
    for (const [label, description, intent_class] of [
      ['crm.contacts_lookup', 'Look up CRM contacts to answer a question about a customer.', 'lookup'],
      ['crm.contacts_export', 'Export CRM contacts in bulk for a marketing campaign.', 'export'],
    ]) {
      const created = await admin.post('/v1/intentions', { label, description, intent_class });
      expect((await admin.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
    }
  });

  afterAll(async () => {
    await sys?.stop();
    await fake?.close();
  });

  it('the llm chooses the candidate when the lexical layer is not confident, and is told the candidates and the call; a human decides (DESIGN 6.15)', async () => {
    fake.chat({ answer: { intent_label: 'crm.contacts_export', confidence: 0.9, reason: 'bulk listing by region' } });
    const res = await admin.post('/v1/intent/evaluate', ambiguous);
    expect(res.status).toBe(200);
    // A model's answer is not a calibrated certainty: the call waits for an approval of its candidate.
    expect(res.body).toMatchObject({ outcome: 'pending_approval', reason: 'uncertain_match', intent_label: 'crm.contacts_export', intent_class: 'export' });
    expect(res.body.classification_evidence).toMatchObject({
      certain: false,
      classification_method: 'llm',
      evaluation_layers_consulted: ['lexical', 'llm'],
      schema_version: 1,
    });
    const chat = fake.requestsTo('/v1/chat/completions').at(-1)!;
    expect(chat.headers.authorization).toBe('Bearer sk-test-llm');
    const text = JSON.stringify(chat.body);
    expect(text).toContain('crm.contacts_lookup');
    expect(text).toContain('crm_contacts');
    // The key never reaches the logs.
    expect(sys.output()).not.toContain('sk-test-llm');
  });

  it('an answer outside the candidates, a 500 or a timeout falls back to the lexical decision, recorded as a layer error', async () => {
    for (const reply of [
      { answer: { intent_label: 'admin.delete_everything', confidence: 1 } },
      { status: 500, json: { error: 'boom' } },
      { hang: true },
    ] as const) {
      fake.chat(reply as never);
      const res = await admin.post('/v1/intent/evaluate', ambiguous);
      expect(res.status).toBe(200);
      expect(res.body.classification_evidence.classification_method).toBe('lexical');
      expect(res.body.classification_evidence.evaluation_layers_consulted).toEqual(['lexical', 'llm']);
      expect(res.body.classification_evidence.layer_errors).toEqual([expect.objectContaining({ layer: 'llm' })]);
      expect(res.body.intent_label).not.toBe('admin.delete_everything');
    }
  });

  it('a confident lexical decision never reaches the llm', async () => {
    const before = fake.requestsTo('/v1/chat/completions').length;
    const res = await admin.post('/v1/intent/evaluate', { tool_call: { name: 'crm.export_contacts', arguments: { format: 'csv' } } });
    expect(res.body.classification_evidence.evaluation_layers_consulted).toEqual(['lexical']);
    expect(fake.requestsTo('/v1/chat/completions').length).toBe(before);
  });
});
