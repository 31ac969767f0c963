import type { DecisionRequest, MandateClaims } from './decision-engine';
import type { AnsweredDecision } from './decision-record';

/**
 * One call put to the decision gate (DESIGN 6.9): the action, the context it is made in and the
 * audience the mandate must be for — the engine's request. `POST /v1/mcp-proxy/call` maps its
 * body to it; the MCP proxy makes it from a `tools/call` (mcpToolAction, `_meta`, the server).
 */
export type ToolCallCommand = DecisionRequest;

/** What the gate decided on one call: answered as it is, and recorded before the gate resolves. */
export interface ToolCallDecision {
  decision: AnsweredDecision;
  /** The verified claims of the mandate it was decided on (the answer names its jti, prompt_id and intent_id). */
  mandate: MandateClaims;
}
