import { AppError, DependencyUnavailableError } from '@igw/kernel';
import { HttpIntentEvaluatorClient } from './http-intent-evaluator.client';
import { InternalServiceResponseError, type InternalServiceClient } from './internal-service.client';

/** An internal client that answers one canned response and remembers what it was asked. */
function answering(status: number, body: unknown) {
  const asked: unknown[][] = [];
  const http = { service: 'intent-evaluator', request: async (...args: unknown[]) => (asked.push(args), { status, body }), close: async () => undefined };
  return { client: new HttpIntentEvaluatorClient(http as unknown as InternalServiceClient), asked };
}

const CALLER = { orgId: 'org_1', keyId: 'key_1' };
const REQUEST = { tool_call: { name: 'files.read', arguments: { path: '/a' } } };
const EVALUATION = { outcome: 'allowed', intent_label: 'files.read_document', intent_event_id: 'iev_1', approval_request_id: null };

describe('HttpIntentEvaluatorClient', () => {
  it('evaluates as the caller with read_only, over the public route', async () => {
    const { client, asked } = answering(200, EVALUATION);
    await expect(client.evaluate(CALLER, REQUEST)).resolves.toEqual(EVALUATION);
    expect(asked).toEqual([['POST', '/v1/intent/evaluate', { orgId: 'org_1', keyId: 'key_1', scope: 'read_only' }, REQUEST]]);
  });

  it('a 400 stays the caller’s invalid request', async () => {
    const { client } = answering(400, { code: 'invalid_request', message: 'tool_call.name is required' });
    await expect(client.evaluate(CALLER, REQUEST)).rejects.toEqual(new AppError('invalid', 'invalid_request', 'tool_call.name is required'));
  });

  it('a 200 that is not an evaluation fails closed (503), never as an allow', async () => {
    for (const body of [null, {}, { outcome: 'sure', intent_event_id: 'x' }, { outcome: 'allowed' }]) {
      await expect(answering(200, body).client.evaluate(CALLER, REQUEST)).rejects.toBeInstanceOf(DependencyUnavailableError);
    }
  });

  it('any other status is a bug of ours (500), not an outage', async () => {
    await expect(answering(403, { code: 'forbidden' }).client.evaluate(CALLER, REQUEST)).rejects.toBeInstanceOf(InternalServiceResponseError);
  });
});
