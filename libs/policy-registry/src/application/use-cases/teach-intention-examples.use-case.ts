import { Injectable } from '@nestjs/common';
import { newId } from '@igw/kernel';
import type { TaughtExamplesDto, TeachFromApprovalDto } from '@igw/contracts';
import { teachExamples } from '../../domain/intention-example';
import { toIntentionExampleDto } from './views';
import { EXAMPLE_BOUNDS, IntentionExampleWriteUseCase } from './intention-example-use-case';

/**
 * What an operator taught from an approval (`remember: true`; PolicyRegistryApi.teach): every
 * example or none, each an `intention_example.added` on the org's intentions counter, committed
 * and announced before it resolves. Idempotent on `approval_id`: a repeat answers what is stored
 * and writes nothing. A label that names no active intention of the org → 404 intent_not_found.
 */
@Injectable()
export class TeachIntentionExamplesUseCase extends IntentionExampleWriteUseCase {
  async execute(orgId: string, request: TeachFromApprovalDto): Promise<TaughtExamplesDto> {
    const now = this.clock.now();
    const taught = request.examples.map((e) => ({ intentionLabel: e.intention_label, covered: e.covered }));
    const call = { toolCall: request.tool_call, conversationContext: request.conversation_context };
    const { examples } = await this.examples.teach(
      orgId,
      request.approval_id,
      taught.map((t) => t.intentionLabel),
      (targets) => teachExamples(() => newId('iex'), request.approval_id, call, taught, targets, EXAMPLE_BOUNDS, now),
      this.added(now),
    );
    return { examples: examples.map(toIntentionExampleDto) };
  }
}
