import { AppError, DependencyUnavailableError } from '@igw/kernel';
import { HttpCardReplayClient } from './http-card-replay.client';
import { InternalServiceResponseError, type InternalServiceClient } from './internal-service.client';

/** An internal client that answers one canned response and remembers what it was asked. */
function answering(status: number, body: unknown) {
  const asked: unknown[][] = [];
  const http = { service: 'decision-proxy', request: async (...args: unknown[]) => (asked.push(args), { status, body }), close: async () => undefined };
  return { client: new HttpCardReplayClient(http as unknown as InternalServiceClient), asked };
}

const CALLER = { orgId: 'org_1', keyId: 'key_1' };
const REQUEST = {
  kind: 'card' as const,
  card: { id: 'crm', name: 'CRM', allowed_scope: { operations: ['crm.*'], resources: ['crm://**'] }, audiences: ['crm-api'] },
};
const RESULT = { replayed: 3, transitions: [], calls: [], next_cursor: null };

describe('HttpCardReplayClient', () => {
  it('replays as the caller with policy_write over the internal route, reading a 503 itself', async () => {
    const { client, asked } = answering(200, RESULT);
    await expect(client.replayCard(CALLER, REQUEST)).resolves.toEqual(RESULT);
    expect(asked).toEqual([['POST', '/internal/replays/card', { orgId: 'org_1', keyId: 'key_1', scope: 'policy_write' }, REQUEST, { returnStatuses: [503] }]]);
  });

  it('passes on a refused draft (400) and a stale cursor (409) with their details', async () => {
    const details = [{ path: 'card.rules[0].when', message: 'card.rules[0].when does not compile' }];
    await expect(answering(400, { code: 'invalid_request', message: details[0]?.message, details }).client.replayCard(CALLER, REQUEST)).rejects.toEqual(
      new AppError('invalid', 'invalid_request', 'card.rules[0].when does not compile', { details }),
    );
    await expect(answering(409, { code: 'cursor_stale', message: 'stale' }).client.replayCard(CALLER, REQUEST)).rejects.toMatchObject({
      kind: 'conflict',
      code: 'cursor_stale',
    });
  });

  it('passes on the deadline with its progress; another 503 is the proxy unavailable; other statuses are bugs', async () => {
    const deadline = { code: 'replay_deadline', message: 'the replay passed its deadline after 42 calls', replayed: 42 };
    await expect(answering(503, deadline).client.replayCard(CALLER, REQUEST)).rejects.toMatchObject({
      kind: 'unavailable',
      code: 'replay_deadline',
      extra: { replayed: 42 },
    });
    await expect(answering(503, { code: 'unavailable', message: 'x' }).client.replayCard(CALLER, REQUEST)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(answering(403, { code: 'insufficient_scope' }).client.replayCard(CALLER, REQUEST)).rejects.toBeInstanceOf(InternalServiceResponseError);
  });
});
