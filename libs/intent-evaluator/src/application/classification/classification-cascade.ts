import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { buildQuery, boundElsewhere, verdictOf, type ClassificationInput, type SearchHit } from '../../domain/classification';
import type { CascadeEvidence, CascadeResult, ClassificationLayer, LayerError } from './cascade-evidence';
import { CHAT_MODEL, type ChatModel } from './chat-model.port';
import { EMBEDDING_MODEL, type EmbeddingModel } from './embedding-model.port';
import { InvalidLlmAnswerError } from './llm-prompt';
import { ModelEndpointError } from './model-endpoint.error';
import { BindingStage } from './stages/binding.stage';
import type { CascadeOrg, ClassificationStage, StageAnswer, StageContext } from './stages/classification-stage';
import { EmbeddingStage } from './stages/embedding.stage';
import {
  DEFAULT_CASCADE_OPTIONS,
  DEFAULT_EMBEDDING_CALIBRATION,
  CLASSIFICATION_CASCADE_OPTIONS,
  type ClassificationCascadeOptions,
  type ClassificationCascadeOverrides,
} from './cascade-options';
import { ExamplesStage } from './stages/examples.stage';
import { LayerTimeoutError } from './stages/layer-timeout';
import { LexicalStage } from './stages/lexical.stage';
import { LlmStage } from './stages/llm.stage';

export type { CascadeIntention, CascadeOrg } from './stages/classification-stage';
export * from './cascade-options';

/** Ranking layers always count as consulted; binding and example stages only when they matched. */
const isRanking = (layer: ClassificationLayer): boolean => layer !== 'binding' && layer !== 'example';

/** Failures are logged at most this often per layer (a down endpoint must not flood the log). */
const LOG_EVERY_MS = 30_000;

/**
 * The classification cascade (DESIGN 6.4, 6.15) as stages, in order: `binding`, `example`,
 * `lexical`, then `embedding` (EMBEDDING_MODEL bound) and `llm` (CHAT_MODEL bound). Each stage
 * answers with a candidate and whether it is certain; a stage that settles the call ends the walk.
 * A ranking layer that fails (endpoint down, timeout, malformed or invalid answer) never fails the
 * evaluation: the previous answer stands and `layer_errors` records the failure. `verdictOf` turns
 * the last answer into certain / uncertain / ambient: only a certain match may be allowed.
 */
@Injectable()
export class ClassificationCascade {
  readonly options: ClassificationCascadeOptions;
  private readonly log = new Logger(ClassificationCascade.name);
  private readonly stages: ClassificationStage[];
  private readonly lastLogged = new Map<string, number>();

  constructor(
    @Optional() @Inject(EMBEDDING_MODEL) embedding?: EmbeddingModel | null,
    @Optional() @Inject(CHAT_MODEL) chat?: ChatModel | null,
    @Optional() @Inject(CLASSIFICATION_CASCADE_OPTIONS) overrides?: ClassificationCascadeOverrides | null,
  ) {
    const { embeddingCalibration, ...rest } = overrides ?? {};
    this.options = {
      ...DEFAULT_CASCADE_OPTIONS,
      ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
      embeddingCalibration: { ...DEFAULT_EMBEDDING_CALIBRATION, ...embeddingCalibration },
    };
    const o = this.options;
    this.stages = [
      new BindingStage(),
      new ExamplesStage(),
      new LexicalStage(o.certainAt, Math.max(o.embeddingCandidates, o.llmCandidates)),
      ...(embedding ? [new EmbeddingStage(embedding, o)] : []),
      ...(chat ? [new LlmStage(chat, o)] : []),
    ];
  }

  /** Which ranking layers can run (lexical always). */
  get layers(): ClassificationLayer[] {
    return this.stages.map((s) => s.layer).filter(isRanking);
  }

  async classify(org: CascadeOrg, input: ClassificationInput): Promise<CascadeResult> {
    const ctx = contextOf(org, input, Math.max(this.options.embeddingCandidates, this.options.llmCandidates));
    const consulted: ClassificationLayer[] = [];
    const errors: LayerError[] = [];
    let answer: StageAnswer | null = null;
    for (const stage of this.stages) {
      if (answer?.settled) break;
      try {
        const next = await stage.run(ctx, answer);
        if (isRanking(stage.layer) || next) consulted.push(stage.layer);
        if (next) answer = next;
      } catch (err) {
        consulted.push(stage.layer);
        errors.push(this.layerError(stage.layer as LayerError['layer'], err));
      }
    }
    // The lexical stage always answers, so there is an answer; the guard keeps the types honest.
    if (answer === null) throw new Error('the lexical stage gave no answer');
    const evidence: CascadeEvidence = {
      classification_method: answer.layer,
      evaluation_layers_consulted: consulted,
      confidence: answer.confidence,
      certain: answer.certain && answer.decision.kind === 'intention',
      ...(answer.matched?.binding !== undefined ? { matched_binding: answer.matched.binding } : {}),
      ...(answer.matched?.examples !== undefined ? { matched_examples: answer.matched.examples } : {}),
      supporting_evidence: answer.supporting,
      ...(errors.length > 0 ? { layer_errors: errors } : {}),
      ...(answer.llmReason !== undefined ? { llm_reason: answer.llmReason } : {}),
      schema_version: 1,
    };
    return { verdict: verdictOf(answer), decision: answer.decision, confidence: answer.confidence, evidence };
  }

  private layerError(layer: LayerError['layer'], err: unknown): LayerError {
    const error: LayerError =
      err instanceof ModelEndpointError
        ? { layer, reason: err.failure, ...(err.status !== undefined ? { status: err.status } : {}) }
        : err instanceof LayerTimeoutError
          ? { layer, reason: 'timeout' }
          : err instanceof InvalidLlmAnswerError
            ? { layer, reason: 'invalid_answer' }
            : { layer, reason: 'error' };
    const now = Date.now();
    if (now - (this.lastLogged.get(layer) ?? -Infinity) >= LOG_EVERY_MS) {
      this.lastLogged.set(layer, now);
      // The message of our own errors names no key, request or response body; others are not echoed.
      const detail =
        err instanceof ModelEndpointError || err instanceof LayerTimeoutError || err instanceof InvalidLlmAnswerError ? err.message : (err as Error)?.name;
      this.log.warn(`${layer} layer failed (${error.reason}${error.status ? ` ${error.status}` : ''}: ${detail}); the previous layer's decision stands`);
    }
    return error;
  }
}

/** What the stages share about one call: its examples' verdict, who may be matched, the index hits (once). */
function contextOf(org: CascadeOrg, input: ClassificationInput, k: number): StageContext {
  const examples = org.examples.verdict(input);
  let hits: readonly SearchHit[] | undefined;
  return {
    org,
    input,
    examples,
    eligible(id) {
      if (examples.negative.has(id)) return false;
      const doc = org.intention(id);
      return doc !== undefined && !boundElsewhere(doc, input.toolName);
    },
    hits: () => (hits ??= org.search(buildQuery(input), k)),
  };
}
