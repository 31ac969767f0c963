import { DECISION_HTTP_STATUS, type DecisionDto, type McpProxyCallDto, type McpProxyCallResponseDto } from '@igw/contracts';
import type { ToolCallCommand, ToolCallDecision } from '../../domain';

/**
 * The body of `POST /v1/mcp-proxy/call` as the gate's command. The action is copied into a plain
 * object (CEL takes JSON-like values, not the validated DTO instance), its members in the order
 * the decision engine echoes them back (a `negotiate`'s suggested_action).
 */
export function toToolCallCommand(body: McpProxyCallDto): ToolCallCommand {
  const a = body.action;
  return {
    action: {
      surface: a.surface,
      operation: a.operation,
      ...(a.arguments !== undefined ? { arguments: a.arguments } : {}),
      ...(a.target_resource !== undefined ? { target_resource: a.target_resource } : {}),
    },
    context: body.context,
    audience: body.audience,
  };
}

/** The gate's decision as the route answers it: the decision as recorded, and the mandate it was made on. */
export function toMcpProxyCallResponse({ decision, mandate }: ToolCallDecision): McpProxyCallResponseDto {
  return {
    decision: decision as DecisionDto,
    mandate: { cred_id: mandate.jti, prompt_id: mandate.prompt_id ?? null, intent_id: mandate.intent_id },
  };
}

/** The status of the answer: it follows the decision kind (200 allow*, 202 defer/negotiate/substitute, 403 deny*, 428 approval/step_up). */
export const mcpProxyCallStatus = ({ decision }: ToolCallDecision): 200 | 202 | 403 | 428 => DECISION_HTTP_STATUS[decision.kind];
