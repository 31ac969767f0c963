import { ROTATION_OVERLAP_MS, rotateSecrets, signingSecrets, subscribes, type WebhookSecret } from './webhook';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const H = 3600 * 1000;
const secret = (id: string, createdAt: Date, expiresAt: Date | null = null): WebhookSecret => ({ id, sealed: `sealed:${id}`, createdAt, expiresAt });

describe('signingSecrets', () => {
  it('keeps secrets without an end and those ending after now, newest first', () => {
    const a = secret('a', at(0));
    const b = secret('b', at(1 * H), at(30 * H));
    const c = secret('c', at(2 * H), at(3 * H));
    expect(signingSecrets({ secrets: [a, b, c] }, at(2.5 * H)).map((s) => s.id)).toEqual(['c', 'b', 'a']);
  });

  it('drops a secret at the instant it expires', () => {
    const old = secret('old', at(0), at(24 * H));
    const fresh = secret('fresh', at(1));
    expect(signingSecrets({ secrets: [old, fresh] }, at(24 * H - 1)).map((s) => s.id)).toEqual(['fresh', 'old']);
    expect(signingSecrets({ secrets: [old, fresh] }, at(24 * H)).map((s) => s.id)).toEqual(['fresh']);
  });

  it('is empty when every secret expired', () => {
    expect(signingSecrets({ secrets: [secret('x', at(0), at(1))] }, at(2))).toEqual([]);
    expect(signingSecrets({ secrets: [] }, at(0))).toEqual([]);
  });

  it('does not reorder the webhook it was given', () => {
    const list = [secret('a', at(0)), secret('b', at(1), at(10 * H))];
    signingSecrets({ secrets: list }, at(2));
    expect(list.map((s) => s.id)).toEqual(['a', 'b']);
  });
});

describe('rotateSecrets', () => {
  it('the overlap is 24 h', () => {
    expect(ROTATION_OVERLAP_MS).toBe(86_400_000);
  });

  it('puts the new secret first without an end, and the previous one signs for 24 h more', () => {
    const first = secret('first', at(0));
    const now = at(5 * H);
    const after = rotateSecrets([first], { id: 'second', sealed: 'sealed:second' }, now);
    expect(after).toEqual([
      { id: 'second', sealed: 'sealed:second', createdAt: now, expiresAt: null },
      { ...first, expiresAt: at(29 * H) },
    ]);
    expect(signingSecrets({ secrets: after }, at(29 * H - 1)).map((s) => s.id)).toEqual(['second', 'first']);
    expect(signingSecrets({ secrets: after }, at(29 * H)).map((s) => s.id)).toEqual(['second']);
  });

  it('rotating twice keeps every earlier secret for at most the overlap from the first rotation it survived', () => {
    const one = rotateSecrets([secret('s0', at(0))], { id: 's1', sealed: 'x1' }, at(1 * H));
    const two = rotateSecrets(one, { id: 's2', sealed: 'x2' }, at(2 * H));
    const byId = Object.fromEntries(two.map((s) => [s.id, s.expiresAt]));
    expect(two.map((s) => s.id)).toEqual(['s2', 's1', 's0']);
    expect(byId['s2']).toBeNull();
    // s1 was open-ended: it now ends 24 h after the second rotation.
    expect(byId['s1']).toEqual(at(26 * H));
    // s0 already ended at 25 h: a later rotation never extends it.
    expect(byId['s0']).toEqual(at(25 * H));
    for (const s of two) if (s.expiresAt) expect(s.expiresAt.getTime() - at(2 * H).getTime()).toBeLessThanOrEqual(ROTATION_OVERLAP_MS);
  });

  it('drops secrets that no longer sign', () => {
    const expired = secret('expired', at(0), at(1 * H));
    const endsExactlyNow = secret('edge', at(0), at(2 * H));
    const current = secret('current', at(1));
    const after = rotateSecrets([expired, endsExactlyNow, current], { id: 'new', sealed: 'n' }, at(2 * H));
    expect(after.map((s) => s.id)).toEqual(['new', 'current']);
  });

  it('many rotations in a row never keep more than the secrets of the last 24 h', () => {
    let secrets = [secret('s0', at(0))];
    for (let i = 1; i <= 10; i++) secrets = rotateSecrets(secrets, { id: `s${i}`, sealed: `x${i}` }, at(i * 6 * H));
    // At 60 h: s6..s9 (rotated out at 42, 48, 54, 60 h) end at 66, 72, 78, 84 h; s5 ended at 60 h and is gone.
    const now = at(60 * H);
    expect(secrets[0]!.id).toBe('s10');
    expect(secrets.every((s) => s.expiresAt === null || s.expiresAt.getTime() <= now.getTime() + ROTATION_OVERLAP_MS)).toBe(true);
    expect(secrets.map((s) => s.id)).toEqual(['s10', 's9', 's8', 's7', 's6']);
  });

  it('does not change the array it was given', () => {
    const list = [secret('a', at(0))];
    rotateSecrets(list, { id: 'b', sealed: 'b' }, at(1));
    expect(list).toEqual([secret('a', at(0))]);
  });
});

describe('subscribes', () => {
  it('only active webhooks listed for the type', () => {
    expect(subscribes({ status: 'active', events: ['intent.evaluated', 'decision.made'] }, 'decision.made')).toBe(true);
    expect(subscribes({ status: 'active', events: ['intent.evaluated'] }, 'decision.made')).toBe(false);
    expect(subscribes({ status: 'disabled', events: ['decision.made'] }, 'decision.made')).toBe(false);
  });
});
