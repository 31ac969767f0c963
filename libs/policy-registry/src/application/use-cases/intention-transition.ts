import { notFound, type Caller } from '@igw/kernel';
import type { IntentionDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import type { Intention } from '../../domain/intention';
import { toIntentionDto, toIntentionEvent } from './views';
import { IntentionWriteUseCase } from './intention-use-case';

/**
 * One lifecycle step of an intention: load it in the caller's org (404 if absent), apply the
 * domain transition and save it with its event. A transition that returns null changed nothing,
 * so the repository writes no event.
 */
export abstract class IntentionTransitionUseCase extends IntentionWriteUseCase {
  /** The event the step publishes. */
  protected abstract readonly topic: { name: string; version: number };

  protected abstract transition(current: Intention, now: Date): Intention | null;

  async execute(caller: Caller, id: string): Promise<IntentionDto> {
    const now = this.clock.now();
    const result = await this.intentions.update(
      caller.orgId,
      id,
      (current) => this.transition(current, now),
      (i, orgVersion) => [envelope(this.topic, i.orgId, toIntentionEvent(i, orgVersion), now)],
    );
    if (!result) throw notFound('intention');
    return toIntentionDto(result.intention);
  }
}
