/** Intent cards (DESIGN 6.7): the scope a mandate may carry, plus ordered decision rules. */
export interface CardScope {
  operations: string[];
  resources: string[];
  forbidden_operations: string[];
}

/** `decision` holds `kind` plus that kind's fields (DESIGN 6.9), kept as the operator wrote them. */
export interface CardRule {
  id: string;
  when: string;
  decision: { kind: string } & Record<string, unknown>;
}

/** What an operator installs. */
export interface CardContent {
  id: string;
  name: string;
  description: string;
  allowedScope: CardScope;
  audiences: string[];
  maxTtlSeconds: number;
  shadow: boolean;
  rules: CardRule[];
}

export interface IntentCard extends CardContent {
  orgId: string;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export const CARD_DEFAULTS = { description: '', forbiddenOperations: [] as string[], maxTtlSeconds: 3600, shadow: false } as const;

/**
 * Installing a card id that exists replaces it: the content is the new one, the version goes up
 * by one and the creation time is kept. A new id starts at version 1; an id whose card was
 * removed goes on from the removal's version (`removedVersion`), so no version of an id ever
 * names two contents (readers compile and cache a card by id and version).
 */
export function installCard(orgId: string, existing: IntentCard | null, content: CardContent, now: Date, removedVersion = 0): IntentCard {
  return {
    ...content,
    orgId,
    version: existing ? existing.version + 1 : removedVersion + 1,
    createdAt: existing ? existing.createdAt : now,
    updatedAt: now,
  };
}
