import { callSignature, type CallSignature } from './call-signature';
import type { ClassificationInput } from './call-query';

/** One example of an intention as the classifier keeps it. */
export interface ExampleEntry {
  readonly id: string;
  readonly intentionId: string;
  readonly covered: boolean;
  readonly signature: CallSignature;
}

/** What an org's examples say of a call: intentions it is certainly (`positive`) or certainly not (`negative`). */
export interface ExampleVerdict {
  readonly positive: ReadonlySet<string>;
  readonly negative: ReadonlySet<string>;
  /** The example ids that matched, for the evidence. */
  readonly matched: readonly { id: string; intentionId: string; covered: boolean }[];
}

const NONE: ExampleVerdict = { positive: new Set(), negative: new Set(), matched: [] };

const keyOf = (s: CallSignature) => `${s.tool}\u0000${s.shape}`;

/**
 * An org's intention examples, indexed by signature: a call finds the examples it is like in one
 * map read (the cost does not grow with the org's examples).
 */
export class ExampleIndex {
  private readonly bySignature = new Map<string, ExampleEntry[]>();
  private readonly byId = new Map<string, ExampleEntry>();

  get size(): number {
    return this.byId.size;
  }

  add(example: { id: string; intentionId: string; covered: boolean; toolCall: { name: string; arguments?: Readonly<Record<string, unknown>> } }): void {
    this.remove(example.id);
    const entry: ExampleEntry = {
      id: example.id,
      intentionId: example.intentionId,
      covered: example.covered,
      signature: callSignature({ toolName: example.toolCall.name, arguments: example.toolCall.arguments }),
    };
    this.byId.set(entry.id, entry);
    const key = keyOf(entry.signature);
    const list = this.bySignature.get(key);
    if (list) list.push(entry);
    else this.bySignature.set(key, [entry]);
  }

  remove(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    this.byId.delete(id);
    const key = keyOf(entry.signature);
    const rest = (this.bySignature.get(key) ?? []).filter((e) => e.id !== id);
    if (rest.length > 0) this.bySignature.set(key, rest);
    else this.bySignature.delete(key);
  }

  /** Forgets every example of an intention (it was archived). */
  removeIntention(intentionId: string): void {
    for (const e of [...this.byId.values()]) if (e.intentionId === intentionId) this.remove(e.id);
  }

  /** The examples a call is like. */
  verdict(input: Pick<ClassificationInput, 'toolName' | 'arguments'>): ExampleVerdict {
    if (this.byId.size === 0) return NONE;
    const list = this.bySignature.get(keyOf(callSignature(input)));
    if (!list) return NONE;
    const positive = new Set<string>();
    const negative = new Set<string>();
    const matched: { id: string; intentionId: string; covered: boolean }[] = [];
    for (const e of list) {
      (e.covered ? positive : negative).add(e.intentionId);
      matched.push({ id: e.id, intentionId: e.intentionId, covered: e.covered });
    }
    // A negative example of X outweighs a positive one of X: an operator said "not this".
    for (const id of negative) positive.delete(id);
    return matched.length === 0 ? NONE : { positive, negative, matched };
  }
}
