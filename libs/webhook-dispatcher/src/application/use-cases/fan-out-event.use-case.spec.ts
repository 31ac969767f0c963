import { Topics, type EventEnvelope } from '@igw/contracts';
import { FixedClock } from '@igw/kernel';
import { PUBLIC_TOPICS } from '../webhook-event-types';
import type { DeliveryRepository } from '../ports/webhook.repository.port';
import type { WebhookSubscriptions } from '../read-model/webhook-subscriptions.read-model';
import { FanOutEventUseCase } from './fan-out-event.use-case';

const NOW = new Date('2026-03-01T10:00:00.000Z');

/** Every org wants every type unless told otherwise. */
const wanting = (wants: (org: string, type: string) => boolean = () => true) =>
  ({ wants: async (org: string, type: string) => wants(org, type) }) as unknown as WebhookSubscriptions;

function setup(created = 1, subscriptions = wanting()) {
  const fanOuts: { event: { id: string; orgId: string; type: string; body: string; occurredAt: string }; now: Date }[] = [];
  const repo = {
    fanOut: async (event: { id: string; orgId: string; type: string; body: string; occurredAt: string }, now: Date) => {
      fanOuts.push({ event, now });
      return created;
    },
  } as unknown as DeliveryRepository;
  let nudges = 0;
  const useCase = new FanOutEventUseCase(repo, subscriptions, { nudge: () => void nudges++ }, new FixedClock(NOW));
  return { useCase, fanOuts, nudges: () => nudges };
}

const envelope = (type: string, data: unknown = { decision_id: 'dec_1', kind: 'allow' }): EventEnvelope => ({
  id: 'evt_1',
  type,
  org_id: 'org_a',
  occurred_at: '2026-03-01T09:59:59.123Z',
  schema_version: 1,
  data,
});

describe('FanOutEventUseCase', () => {
  it.each([Topics.OrgCreated.name, Topics.ApiKeyCreated.name, Topics.IntentionCreated.name, Topics.IntentCardInstalled.name, 'unknown.topic.v1'])(
    'a non-public topic %s creates nothing and touches no repository',
    async (topic) => {
      const t = setup();
      expect(await t.useCase.execute(envelope(topic))).toBe(0);
      expect(t.fanOuts).toEqual([]);
      expect(t.nudges()).toBe(0);
    },
  );

  it('a public event is fanned out under its public type with the body {type, timestamp, data}, and the worker is nudged', async () => {
    const t = setup(2);
    const data = { decision_id: 'dec_9', kind: 'deny', nested: { list: [1, 'two', null] } };
    expect(await t.useCase.execute(envelope(Topics.DecisionMade.name, data))).toBe(2);
    expect(t.fanOuts).toHaveLength(1);
    const { event, now } = t.fanOuts[0]!;
    expect(now).toEqual(NOW);
    expect(event).toEqual({ id: 'evt_1', orgId: 'org_a', type: 'decision.made', body: expect.any(String), occurredAt: '2026-03-01T09:59:59.123Z' });
    expect(JSON.parse(event.body)).toEqual({ type: 'decision.made', timestamp: '2026-03-01T09:59:59.123Z', data });
    expect(Object.keys(JSON.parse(event.body))).toEqual(['type', 'timestamp', 'data']);
    expect(t.nudges()).toBe(1);
  });

  it('skips the repository when no webhook of the org wants the type (the in-memory subscriptions)', async () => {
    const t = setup(
      1,
      wanting((org, type) => org === 'org_a' && type === 'approval.requested'),
    );
    expect(await t.useCase.execute(envelope(Topics.DecisionMade.name))).toBe(0);
    expect(t.fanOuts).toEqual([]);
    expect(await t.useCase.execute(envelope(Topics.ApprovalRequested.name))).toBe(1);
    expect(t.fanOuts).toHaveLength(1);
  });

  it('maps every public topic to its public type', async () => {
    for (const topic of PUBLIC_TOPICS) {
      const t = setup();
      await t.useCase.execute(envelope(topic.name));
      expect(t.fanOuts[0]!.event.type).toBe(topic.webhookType);
      expect(JSON.parse(t.fanOuts[0]!.event.body).type).toBe(topic.webhookType);
    }
    expect(PUBLIC_TOPICS.map((t) => t.name)).toContain(Topics.IntentionPublished.name);
  });

  it('does not nudge when nothing was created (no subscriber, or a redelivered event)', async () => {
    const t = setup(0);
    expect(await t.useCase.execute(envelope(Topics.IntentEvaluated.name))).toBe(0);
    expect(t.fanOuts).toHaveLength(1);
    expect(t.nudges()).toBe(0);
  });

  it('a failing repository rejects (so the bus delivers the event again) and nudges nobody', async () => {
    let nudges = 0;
    const repo = { fanOut: async () => Promise.reject(new Error('database down')) } as unknown as DeliveryRepository;
    const useCase = new FanOutEventUseCase(repo, wanting(), { nudge: () => void nudges++ }, new FixedClock(NOW));
    await expect(useCase.execute(envelope(Topics.MandateRevoked.name))).rejects.toThrow('database down');
    expect(nudges).toBe(0);
  });
});
