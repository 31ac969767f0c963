import type { components, paths } from './generated/api';

export type { components, paths, operations } from './generated/api';

type S = components['schemas'];
export type Intention = S['IntentionDto'];
export type CreateIntention = S['CreateIntentionDto'];
export type UpdateIntention = S['UpdateIntentionDto'];
export type IntentionExample = S['IntentionExampleDto'];
export type CreateIntentionExample = S['CreateIntentionExampleDto'];
export type IntentCard = S['IntentCardDto'];
export type InstallIntentCard = S['InstallIntentCardDto'];
export type Approval = S['ApprovalDto'];
export type ApproveApproval = S['ApproveApprovalDto'];
export type DenyApproval = S['DenyApprovalDto'];
export type ToolCall = S['ToolCallDto'];
export type EvaluateRequest = S['EvaluateIntentRequestDto'];
export type Evaluation = S['EvaluateIntentResponseDto'];
export type IntentEvent = S['IntentEventDto'];
export type DispenseRequest = S['DispenseMandateDto'];
export type DispensedMandate = S['DispensedMandateDto'];
export type RevokedMandate = S['RevokedMandateDto'];
export type MandateView = S['MandateViewDto'];
export type Jwks = S['JwksDto'];
export type Stats = S['StatsDto'];
export type StatsWindow = Stats['window'];
export type ProxyAction = S['ProxyActionDto'];
export type Decision = S['DecisionDto'];
export type McpProxyCallResponse = S['McpProxyCallResponseDto'];
export type DecisionRecord = S['DecisionRecordDto'];
export type McpServer = S['McpServerDto'];
export type RegisterMcpServer = S['RegisterMcpServerDto'];
export type VerifyGrantResponse = S['VerifyGrantResponseDto'];
export type ReplayRequest = S['ReplayRequestDto'];
export type ReplayResult = S['ReplayResultDto'];
export type IntentionChange = S['IntentionChangeDto'];

/** Query parameters of a GET path. */
export type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;
export type HistoryQuery = Omit<QueryOf<'/v1/intent/history'>, 'cursor'>;
export type ApprovalsQuery = Omit<QueryOf<'/v1/approvals'>, 'cursor'>;
export type IntentionsQuery = Omit<QueryOf<'/v1/intentions'>, 'cursor'>;
export type DecisionsQuery = Omit<QueryOf<'/v1/mcp-proxy/decisions'>, 'cursor'>;

/** A cursor page: `next_cursor` null on the last page. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}
