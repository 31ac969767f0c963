import { candidateOf, lexicalRanking, type ClassificationStage, type StageAnswer, type StageContext } from './classification-stage';

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
  ) {}

  run(ctx: StageContext): StageAnswer {
    const lexical = ctx.org.classifier.classify(ctx.input, (id) => ctx.eligible(id));
    const { decision, confidence } = lexical;
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
