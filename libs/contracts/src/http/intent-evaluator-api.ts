import type { EvaluateIntentRequestDto, EvaluateIntentResponseDto } from './intent-evaluation.dto';

/**
 * What other services may ask of the intent evaluator: an evaluation on the legacy path (DESIGN
 * 6.4), recorded before it resolves, exactly as `POST /v1/intent/evaluate` does for `caller`.
 * The MCP enforcement proxy uses it for calls that carry no mandate (DESIGN 6.13).
 */
export interface IntentEvaluatorApi {
  evaluate(caller: { orgId: string; keyId: string }, request: EvaluateIntentRequestDto): Promise<EvaluateIntentResponseDto>;
}

export const INTENT_EVALUATOR_API = Symbol('INTENT_EVALUATOR_API');
