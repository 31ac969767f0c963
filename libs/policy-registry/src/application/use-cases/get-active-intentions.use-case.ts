import { Inject, Injectable } from '@nestjs/common';
import type { ActiveIntentionsDto } from '@igw/contracts';
import { INTENTION_REPOSITORY, type IntentionRepository } from '../ports/intention.repository.port';
import { toIntentionEvent, toIntentionExampleEvent } from './views';

/**
 * An org's active intentions, their examples and the intentions counter they correspond to, from
 * one consistent snapshot: what a read model (the evaluator's cache) loads when the version board says it is
 * stale. Each intention and example is in event form with `org_version` = the snapshot's version.
 */
@Injectable()
export class GetActiveIntentionsUseCase {
  constructor(@Inject(INTENTION_REPOSITORY) private readonly intentions: IntentionRepository) {}

  async execute(orgId: string): Promise<ActiveIntentionsDto> {
    const { version, intentions, examples } = await this.intentions.activeSnapshot(orgId);
    return {
      version,
      intentions: intentions.map((i) => toIntentionEvent(i, version)),
      examples: examples.map((e) => toIntentionExampleEvent(e, version)),
    };
  }
}
