import { InvalidEventError, parseEvent, type IntentionEventV1 } from './payloads';
import { intentionEvent } from '../testing';
import { Topics } from './topics';

const intention = intentionEvent();
const envelope = (type: string, data: unknown) => ({ id: 'evt_1', type, org_id: 'org_1', occurred_at: '2026-11-22T10:01:00.000Z', schema_version: 1, data });

describe('parseEvent (payloads validated on consume)', () => {
  it('accepts a payload that matches its versioned class', () => {
    const parsed = parseEvent<IntentionEventV1>(envelope(Topics.IntentionPublished.name, intention));
    expect(parsed.label).toBe('crm.lookup');
    expect(parsed.data_elements[0]!.path).toBe('customers.email');
  });

  it('rejects a malformed payload and an unknown type', () => {
    expect(() => parseEvent(envelope(Topics.IntentionPublished.name, { ...intention, status: 'live' }))).toThrow(InvalidEventError);
    expect(() => parseEvent(envelope(Topics.IntentionPublished.name, { ...intention, data_elements: [{ path: 1 }] }))).toThrow(InvalidEventError);
    expect(() => parseEvent(envelope('policy.intention.exploded.v9', intention))).toThrow(/unknown event type/);
  });

  it('every topic name follows <context>.<entity>.<event>.v<N> and is declared once', () => {
    const names = Object.values(Topics).map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const t of Object.values(Topics)) expect(t.name).toMatch(new RegExp(`^[a-z_]+\\.[a-z_]+\\.[a-z_]+\\.v${t.version}$`));
  });
});
