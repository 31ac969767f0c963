import { candidateOf, lexicalRanking, type ClassificationStage, type StageAnswer, type StageContext, decisionOf } from './classification-stage';

/**
 * The least probability at which the ranker's best intention is a candidate for a human even
 * though "no intention" was likelier (decision 0018): chosen on the dev sets, where it brings
 * covered calls denied from 5–13% down to 2–6% and allows nothing more.
 */
export const CANDIDATE_FLOOR = 0.2;

/**
 * The lexical layer (DESIGN 6.4): the fitted ranker over the org's intentions. Its match is
 * certain only at the deployment's calibrated bar (`certainAt`) and when the intention permits
 * the call's action. A confident answer that is not certain still ends the walk (as before the
 * bar existed): the later layers could only reorder the candidates a human then sees.
 */
export class LexicalStage implements ClassificationStage {
  readonly layer = 'lexical' as const;

  constructor(
    private readonly certainAt: number,
    /** Candidates later layers may start from: the lexical index's top N. */
    private readonly rankingSize: number,
    /** An "ambient" answer whose best candidate has at least this probability is that candidate, uncertain. */
    private readonly candidateFloor = CANDIDATE_FLOOR,
  ) {}

  run(ctx: StageContext): StageAnswer {
    const lexical = ctx.org.classifier.classify(ctx.input, (id) => ctx.eligible(id));
    let { decision, confidence } = lexical;
    // "No intention" by a small margin is not a certain denial: a candidate with a fair chance
    // goes to a human (pending), so a covered call is not refused on a guess either.
    const [top] = lexical.evidence.supporting_evidence;
    if (decision.kind === 'ambient' && top !== undefined && top.probability >= this.candidateFloor) {
      decision = decisionOf({ id: top.intention_id, label: top.intent_label, intentClass: top.intent_class });
      confidence = top.probability;
    }
    const permitted = lexical.signals.actionMatch === 1;
    const certain = decision.kind === 'intention' && permitted && confidence >= this.certainAt;
    const candidates = lexical.evidence.supporting_evidence.flatMap((e) => {
      const doc = ctx.org.intention(e.intention_id);
      return doc ? [candidateOf(doc, e.probability)] : [];
    });
    return {
      layer: 'lexical',
      decision,
      confidence,
      certain,
      candidates,
      settled: certain || lexical.confident,
      supporting: lexical.evidence.supporting_evidence,
      ranking: () => lexicalRanking(ctx, ctx.hits().slice(0, this.rankingSize)),
    };
  }
}
