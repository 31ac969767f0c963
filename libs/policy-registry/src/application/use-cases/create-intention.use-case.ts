import { Injectable } from '@nestjs/common';
import { newId, type Caller } from '@igw/kernel';
import { Topics, type CreateIntentionDto, type IntentionDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { createIntention } from '../../domain/intention';
import { toIntentionDto, toIntentionEvent } from './views';
import { newIntentionOf } from './intention-inputs';
import { IntentionWriteUseCase } from './intention-use-case';

/** Creates a draft intention (= purpose); the label is unique in the org (409 label_conflict). */
@Injectable()
export class CreateIntentionUseCase extends IntentionWriteUseCase {
  async execute(caller: Caller, input: CreateIntentionDto): Promise<IntentionDto> {
    const now = this.clock.now();
    const intention = createIntention(newId('int'), caller.orgId, newIntentionOf(input), now);
    const saved = await this.intentions.create(intention, (i, orgVersion) => [
      envelope(Topics.IntentionCreated, i.orgId, toIntentionEvent(i, orgVersion), now),
    ]);
    return toIntentionDto(saved);
  }
}
