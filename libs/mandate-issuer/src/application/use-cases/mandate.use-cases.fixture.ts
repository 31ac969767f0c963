// The mandate use-case specs' world (dispense-mandate.use-case.spec.ts, mandate.use-cases.spec.ts):
// importing it registers the signing key's generation (beforeAll, realMandateSigning) in the importing spec.
import { createLocalJWKSet, jwtVerify } from 'jose';
import { parseEvent, type DispenseMandateDto, type MandateEventV1 } from '@igw/contracts';
import { type Caller } from '@igw/kernel';
import { type BrokerKind } from '../brokers';
import { dispenseDto as crmDispenseDto, mandateWorld } from '../testing/mandate-world.fake';
import { realMandateSigning } from '../testing/real-mandate-signing.fixture';
import { MANDATE_ISSUER } from './dispense-mandate.use-case';
import { InspectMandateUseCase } from './inspect-mandate.use-case';

export const ORG = 'org_acme';
export const caller: Caller = { orgId: ORG, keyId: 'key_writer', scope: 'policy_write' };
export const outsider: Caller = { orgId: 'org_other', keyId: 'key_other', scope: 'admin' };
/** Mid-second on purpose: mandate times are whole seconds. */
export const T0 = new Date('2026-03-01T10:00:00.250Z');
export const T0_S = Math.floor(T0.getTime() / 1000);
export const iso = (seconds: number) => new Date((T0_S + seconds) * 1000).toISOString();

const real = realMandateSigning();
export const signing = real.signing;
/** The kid of the key the worlds sign with (generated once, before the first spec). */
export const signingKid = () => real.signingKey().kid;

export async function setup(kinds: BrokerKind[] = ['vault', 'conjur'], options: { loadKeys?: boolean } = {}) {
  const world = await mandateWorld({ now: T0, signing, signingKey: real.signingKey(), kinds, orgs: [ORG], loadKeys: options.loadKeys });
  return { ...world, sign: jest.spyOn(world.ring, 'sign'), inspect: new InspectMandateUseCase(world.mandates, world.clock) };
}
export type World = Awaited<ReturnType<typeof setup>>;

/** The shared request, with the context and evidence the claims assertions look for. */
export const dispenseDto = (extra: Partial<DispenseMandateDto> = {}): DispenseMandateDto =>
  crmDispenseDto({ context: { acr: 'mfa', channel: 'chat' }, classification_evidence: { classification_method: 'lexical', confidence: 0.92 }, ...extra });

/** A fresh world with one mandate dispensed from the default request. */
export async function withMandate() {
  const s = await setup();
  return { s, out: await s.dispense.execute(caller, dispenseDto()) };
}
export const vault = { broker_dispense: { kind: 'vault' as const, vault_role: 'agent' } };

/** A verifier with the gateway's published JWKS, at the world's time. */
export const verify = (s: World, token: string) =>
  jwtVerify(token, createLocalJWKSet(s.ring.jwks().body), { algorithms: ['RS256'], typ: 'mandate+jwt', issuer: MANDATE_ISSUER, currentDate: s.clock.now() });

export const eventsOf = (s: World) => s.mandates.outbox.map((e) => ({ type: e.type, data: parseEvent<MandateEventV1>(e) }));
export const typesOf = (s: World) => s.mandates.outbox.map((e) => e.type);

/** Nothing signed, stored, emitted or asked of a broker. */
export function expectNothingIssued(s: World) {
  expect(s.sign).not.toHaveBeenCalled();
  expect(s.keys.snapshot()[0]!.lastExpiry).toBeNull();
  expect(s.mandates.rows.size).toBe(0);
  expect(s.mandates.outbox).toEqual([]);
  expect(s.brokers.mints).toEqual([]);
}

export const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
