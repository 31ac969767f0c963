import type { DispenseMandateDto } from '@igw/contracts';
import { FixedClock } from '@igw/kernel';
import { KeyRing } from '../signing/key-ring';
import type { MandateSigning } from '../signing/mandate-signing.port';
import { DispenseMandateUseCase } from '../use-cases/dispense-mandate.use-case';
import { RefreshMandateUseCase } from '../use-cases/refresh-mandate.use-case';
import { RevokeMandateUseCase } from '../use-cases/revoke-mandate.use-case';
import type { BrokerKind } from '../brokers';
import { FakeCredentialBrokers } from './fake-credential-brokers.fake';
import { FakeIntentCards } from './fake-intent-cards.fake';
import { InMemoryMandateRepository } from './in-memory-mandate.repository.fake';
import { InMemorySigningKeyRepository } from './in-memory-signing-key.repository.fake';

export type GeneratedSigningKey = Awaited<ReturnType<MandateSigning['generate']>>;

/**
 * The mandate use cases over fresh in-memory stores at `now`, signing with `signingKey`, installed
 * as a signer active since the day before (specs generate one RSA key per file: it is slow); each
 * of `orgs` has the default intent card and `kinds` are the brokers that answer.
 */
export async function mandateWorld(world: {
  now: Date;
  signing: MandateSigning;
  signingKey: GeneratedSigningKey;
  kinds: BrokerKind[];
  orgs: string[];
  /** false: leave the key ring unloaded, as a replica that has not read its keys yet. */
  loadKeys?: boolean;
}) {
  const { signing, signingKey } = world;
  const clock = new FixedClock(world.now);
  const keys = new InMemorySigningKeyRepository();
  const dayBefore = new Date(world.now.getTime() - 24 * 3600_000);
  keys.rows.set(signingKey.kid, { ...signingKey, kekId: signing.kekId, createdAt: dayBefore, activatesAt: dayBefore, retiredAt: null, lastExpiry: null });
  const ring = new KeyRing(keys, signing, clock, {});
  if (world.loadKeys !== false) await ring.reload();
  const mandates = new InMemoryMandateRepository();
  const brokers = new FakeCredentialBrokers(world.kinds);
  const registry = new FakeIntentCards();
  for (const org of world.orgs) registry.install(org);
  return {
    clock,
    keys,
    ring,
    mandates,
    brokers,
    registry,
    dispense: new DispenseMandateUseCase(registry, mandates, brokers, signing, ring, clock),
    refresh: new RefreshMandateUseCase(registry, mandates, ring, clock),
    revoke: new RevokeMandateUseCase(mandates, brokers, signing, clock),
  };
}

/** A dispense request for the `crm` card the specs install; `extra` adds or overrides fields. */
export const dispenseDto = (extra: Partial<DispenseMandateDto> = {}): DispenseMandateDto =>
  ({
    actor: 'agent:support-bot',
    intent_id: 'crm',
    prompt_id: 'prm_1',
    audience: 'crm-api',
    requested_scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/42'] },
    ...extra,
  }) as DispenseMandateDto;
