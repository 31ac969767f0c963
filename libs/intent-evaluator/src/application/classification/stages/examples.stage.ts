import { boundElsewhere } from '../../../domain/classification';
import { candidateOf, type CascadeIntention, type ClassificationStage, type StageAnswer, type StageContext, decisionOf } from './classification-stage';

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
    intentions.splice(MAX_EVIDENCE);
    return {
      layer: 'example',
      decision: decisionOf(first),
      confidence,
      certain,
      candidates: intentions.map((d) => candidateOf(d, confidence)),
      settled: true,
      supporting: intentions.map((d) => ({ intent_label: d.label, intention_id: d.id, intent_class: d.intentClass, matched_terms: [] })),
      matched: { examples: matchedExamples(ctx, new Set(intentions.map((d) => d.id))) },
    };
  }
}

/** Candidates and evidence entries an examples answer reports: a handful is what a human can weigh. */
const MAX_EVIDENCE = 10;

function matchedExamples(ctx: StageContext, ids: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of ctx.examples.matched) if (m.covered && ids.has(m.intentionId) && out.length < MAX_EVIDENCE) out.push(m.id);
  return out;
}
