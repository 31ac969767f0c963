import { Inject } from '@nestjs/common';
import { CLOCK, type Clock } from '@igw/kernel';
import { EXAMPLE_LIMITS, Topics, type EventEnvelope } from '@igw/contracts';
import { envelope } from '@igw/events';
import type { ExampleLimits, IntentionExample } from '../../domain/intention-example';
import { INTENTION_EXAMPLE_REPOSITORY, type IntentionExampleRepository } from '../ports/intention-example.repository.port';
import { toIntentionExampleEvent } from './views';

/** The contract's bounds of examples, as the domain takes them. */
export const EXAMPLE_BOUNDS: ExampleLimits = { perIntention: EXAMPLE_LIMITS.perIntention, bytes: EXAMPLE_LIMITS.bytes };

/**
 * The collaborators of the example use cases that write: the examples and the clock that stamps
 * them and their events. Subclasses inherit the constructor, so Nest injects both.
 */
export abstract class IntentionExampleWriteUseCase {
  constructor(
    @Inject(INTENTION_EXAMPLE_REPOSITORY) protected readonly examples: IntentionExampleRepository,
    @Inject(CLOCK) protected readonly clock: Clock,
  ) {}

  /** `intention_example.added` of a stored example, with the org's new intentions counter. */
  protected added(now: Date): (e: IntentionExample, orgVersion: number) => EventEnvelope[] {
    return (e, orgVersion) => [envelope(Topics.IntentionExampleAdded, e.orgId, toIntentionExampleEvent(e, orgVersion), now)];
  }

  /** `intention_example.removed` of a removed example (`removed: true`). */
  protected removed(now: Date): (e: IntentionExample, orgVersion: number) => EventEnvelope[] {
    return (e, orgVersion) => [envelope(Topics.IntentionExampleRemoved, e.orgId, toIntentionExampleEvent(e, orgVersion, true), now)];
  }
}
