import { boundElsewhere } from '../../../domain/classification';
import { candidateOf, type CascadeIntention, type ClassificationStage, type StageAnswer, type StageContext } from './classification-stage';

/**
 * Examples (DESIGN 6.15): a call like a positive example of one intention is certain for it; like
 * positive examples of several, a human chooses between them. Negative examples only rule
 * intentions out (`StageContext.eligible`), so they are read by every stage.
 */
export class ExamplesStage implements ClassificationStage {
  readonly layer = 'example' as const;

  run(ctx: StageContext): StageAnswer | null {
    const intentions: CascadeIntention[] = [];
    for (const id of ctx.examples.positive) {
      const doc = ctx.org.intention(id);
      // An intention with `tools` covers only those: its example for another tool says nothing.
      if (doc && !boundElsewhere(doc, ctx.input.toolName)) intentions.push(doc);
    }
    intentions.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    const [first] = intentions;
    if (first === undefined) return null;
    const certain = intentions.length === 1;
    const confidence = 1 / intentions.length;
    return {
      layer: 'example',
      decision: { kind: 'intention', intentionId: first.id, label: first.label, intentClass: first.intentClass },
      confidence,
      certain,
      candidates: intentions.map((d) => candidateOf(d, confidence)),
      settled: true,
      supporting: intentions.map((d) => ({ intent_label: d.label, intention_id: d.id, intent_class: d.intentClass, matched_terms: [] })),
      matched: { examples: ctx.examples.matched.filter((m) => m.covered && intentions.some((d) => d.id === m.intentionId)).map((m) => m.id) },
    };
  }
}
