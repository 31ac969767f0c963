import { Injectable } from '@nestjs/common';
import { newId, throwIfInvalid, type Caller } from '@igw/kernel';
import { Topics, type InstallIntentCardDto, type IntentCardDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { checkCard } from '../../domain/card-rules';
import { CARD_DEFAULTS, installCard, type CardContent, type CardRule } from '../../domain/intent-card';
import { toIntentCardDto, toIntentCardEvent } from './views';
import { IntentCardWriteUseCase } from './intent-card-use-case';

/** Keeps only the fields that were given (class-transformer instances carry no undefined keys, plain objects may). */
function definedFields<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function toCardContent(input: InstallIntentCardDto, id: string): CardContent {
  return {
    id,
    name: input.name,
    description: input.description ?? CARD_DEFAULTS.description,
    allowedScope: {
      operations: [...input.allowed_scope.operations],
      resources: [...input.allowed_scope.resources],
      forbidden_operations: [...(input.allowed_scope.forbidden_operations ?? CARD_DEFAULTS.forbiddenOperations)],
    },
    audiences: [...input.audiences],
    maxTtlSeconds: input.max_ttl_seconds ?? CARD_DEFAULTS.maxTtlSeconds,
    shadow: input.shadow ?? CARD_DEFAULTS.shadow,
    rules: (input.rules ?? []).map((r): CardRule => ({ id: r.id, when: r.when, decision: definedFields({ ...r.decision }) })),
  };
}

/**
 * Installs a card for the caller's org (DESIGN 6.7): rules are checked first (CEL conditions,
 * unique ids, per-kind fields, glob patterns) and refused with 400 naming the offending path.
 * An existing id is replaced (version + 1, created_at kept); `created` tells 201 from 200.
 */
@Injectable()
export class InstallIntentCardUseCase extends IntentCardWriteUseCase {
  async execute(caller: Caller, input: InstallIntentCardDto): Promise<{ card: IntentCardDto; created: boolean }> {
    const content = toCardContent(input, input.id ?? newId('card'));
    const details = checkCard(content);
    throwIfInvalid(details);
    const now = this.clock.now();
    const { card, created } = await this.cards.install(
      caller.orgId,
      content.id,
      (existing, removedVersion) => installCard(caller.orgId, existing, content, now, removedVersion),
      (c, orgVersion) => [envelope(Topics.IntentCardInstalled, c.orgId, toIntentCardEvent(c, orgVersion), now)],
    );
    return { card: toIntentCardDto(card), created };
  }
}
