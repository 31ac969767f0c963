import { Injectable } from '@nestjs/common';
import { notFound, type Caller } from '@igw/kernel';
import { IntentionExampleWriteUseCase } from './intention-example-use-case';

/**
 * Removes one example of an intention of the caller's org (any status): one
 * `intention_example.removed` on the org's intentions counter. An unknown example, or one of
 * another intention or org, is a 404.
 */
@Injectable()
export class RemoveIntentionExampleUseCase extends IntentionExampleWriteUseCase {
  async execute(caller: Caller, intentionId: string, exampleId: string): Promise<void> {
    const removed = await this.examples.remove(caller.orgId, intentionId, exampleId, this.removed(this.clock.now()));
    if (!removed) throw notFound('example');
  }
}
