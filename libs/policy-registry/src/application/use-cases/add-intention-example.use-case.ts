import { Injectable } from '@nestjs/common';
import { newId, notFound, type Caller } from '@igw/kernel';
import type { CreateIntentionExampleDto, IntentionExampleDto } from '@igw/contracts';
import { createExample } from '../../domain/intention-example';
import { toIntentionExampleDto } from './views';
import { EXAMPLE_BOUNDS, IntentionExampleWriteUseCase } from './intention-example-use-case';

/**
 * Adds a manual example to a draft or active intention of the caller's org (DESIGN 6.15): one
 * `intention_example.added` on the org's intentions counter, read models advanced before the
 * answer. Archived → 409 invalid_transition; full → 409 example_limit; unknown or another org's → 404.
 */
@Injectable()
export class AddIntentionExampleUseCase extends IntentionExampleWriteUseCase {
  async execute(caller: Caller, intentionId: string, input: CreateIntentionExampleDto): Promise<IntentionExampleDto> {
    const now = this.clock.now();
    const example = { toolCall: input.tool_call, conversationContext: input.conversation_context, covered: input.covered, source: 'manual' as const };
    const saved = await this.examples.add(
      caller.orgId,
      intentionId,
      (intention, count) => createExample(newId('iex'), intention, count, example, EXAMPLE_BOUNDS, now),
      this.added(now),
    );
    if (!saved) throw notFound('intention');
    return toIntentionExampleDto(saved);
  }
}
