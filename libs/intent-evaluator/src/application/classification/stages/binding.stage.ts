import { matchLabelBindings, matchToolBindings, type BindingResult } from '../../../domain/classification';
import { candidateOf, type CascadeIntention, type ClassificationStage, type StageAnswer, type StageContext, decisionOf } from './classification-stage';

/**
 * Bindings (DESIGN 6.15): an intention whose `tools` match the tool name is certain (the most
 * specific pattern wins; equally specific ones go to a human together). Without explicit ones, a
 * name binding — the tool's name starts with an intention's label — is certain the same way.
 * A negative example of the bound intention makes it uncertain: the operator said "not this".
 */
export class BindingStage implements ClassificationStage {
  readonly layer = 'binding' as const;

  run(ctx: StageContext): StageAnswer | null {
    const name = ctx.input.toolName;
    const explicit = matchToolBindings(name, ctx.org.bound());
    const result = explicit.kind !== 'none' ? explicit : matchLabelBindings(name, (prefix) => ctx.org.named(prefix));
    return answerOf(ctx, result);
  }
}

function answerOf(ctx: StageContext, result: BindingResult<CascadeIntention>): StageAnswer | null {
  if (result.kind === 'none') return null;
  const matches = result.kind === 'bound' ? [result.match] : result.matches;
  const usable = matches.filter((m) => !ctx.examples.negative.has(m.intention.id));
  const [first] = usable;
  if (first === undefined) {
    // Every bound intention was ruled out by an example: nothing else may claim the tool.
    return {
      layer: 'binding',
      decision: decisionOf(undefined),
      confidence: 1,
      certain: true,
      candidates: [],
      settled: true,
      supporting: [],
      matched: { binding: matches[0]?.pattern ?? '' },
    };
  }
  const certain = result.kind === 'bound' && usable.length === 1;
  return {
    layer: 'binding',
    decision: decisionOf(first.intention),
    confidence: certain ? 1 : 1 / usable.length,
    certain,
    candidates: usable.map((m) => candidateOf(m.intention, certain ? 1 : 1 / usable.length)),
    settled: true,
    supporting: usable.map((m) => ({
      intent_label: m.intention.label,
      intention_id: m.intention.id,
      intent_class: m.intention.intentClass,
      matched_terms: [],
    })),
    matched: { binding: first.pattern },
  };
}
