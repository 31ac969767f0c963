import { AMBIENT_LABEL } from '../../../domain/classification';
import type { ChatModel } from '../chat-model.port';
import { llmMessages, parseLlmAnswer } from '../llm-prompt';
import {
  candidateOf,
  lexicalEvidence,
  round,
  type ClassificationStage,
  type Ranked,
  type StageAnswer,
  type StageContext,
  decisionOf,
} from './classification-stage';
import { withTimeout } from './layer-timeout';
import type { ClassificationCascadeOptions } from '../cascade-options';

export type LlmStageOptions = Pick<ClassificationCascadeOptions, 'llmTimeoutMs' | 'llmCandidates' | 'llmContextMessages'>;

const byLabel = (a: { label: string }, b: { label: string }) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);

/** The llm layer: asks a chat model to choose among the best candidates of the layers before it (or none). */
export class LlmStage implements ClassificationStage {
  readonly layer = 'llm' as const;

  constructor(
    private readonly model: ChatModel,
    private readonly options: LlmStageOptions,
  ) {}

  async run(ctx: StageContext, previous: StageAnswer | null): Promise<StageAnswer | null> {
    const candidates = this.candidates(ctx, previous?.ranking?.() ?? []);
    if (candidates.length === 0) return null;
    const messages = llmMessages(
      candidates.map((c) => c.doc),
      ctx.input,
      this.options.llmContextMessages,
    );
    const raw = await withTimeout(this.model.completeJson(messages, { timeoutMs: this.options.llmTimeoutMs }), this.options.llmTimeoutMs);
    const answer = parseLlmAnswer(raw, new Set(candidates.map((c) => c.doc.label)));
    const chosen = candidates.find((c) => c.doc.label === answer.label);
    const before = previous?.supporting ?? [];
    // The previous layer's top candidates, the llm's choice first.
    const supporting = chosen
      ? [before.find((e) => e.intention_id === chosen.doc.id) ?? chosen.evidence, ...before.filter((e) => e.intention_id !== chosen.doc.id)].slice(
          0,
          Math.max(before.length, 1),
        )
      : before;
    const confidence = round(answer.confidence);
    return {
      layer: 'llm',
      decision: decisionOf(chosen?.doc),
      confidence,
      // The model's own confidence is not calibrated (decision 0018): its match goes to a human.
      certain: false,
      candidates: chosen ? [candidateOf(chosen.doc, confidence), ...(previous?.candidates ?? []).filter((c) => c.intentionId !== chosen.doc.id)] : [],
      settled: true,
      supporting,
      llmReason: answer.reason,
    };
  }

  /** All eligible intentions when the org has no more than `llmCandidates`, else the best of the last ranking. */
  private candidates(ctx: StageContext, ranking: readonly Ranked[]): Ranked[] {
    const k = this.options.llmCandidates;
    // "ambient" is the answer for no intention; an intention labelled so is never offered.
    const usable = (r: Ranked) => r.doc.label !== AMBIENT_LABEL && ctx.eligible(r.doc.id);
    if (ctx.org.size > k) return ranking.filter(usable).slice(0, k);
    const ranked = new Set(ranking.map((r) => r.doc.id));
    const rest = ctx.org
      .documents()
      .filter((d) => !ranked.has(d.id))
      .sort(byLabel);
    return [...ranking, ...rest.map((doc) => ({ doc, evidence: lexicalEvidence(doc, undefined) }))].filter(usable).slice(0, k);
  }
}
