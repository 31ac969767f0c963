import { ApiProperty } from '@nestjs/swagger';
import { STATS_WINDOWS, type StatsWindow } from '@igw/kernel';

export { STATS_WINDOWS, type StatsWindow };

const SERIES = {
  type: 'object',
  additionalProperties: { type: 'array', items: { type: 'integer' } },
  description: 'Per key, its counts aligned on `buckets`; keys with no count in the window are absent.',
} as const;
const TOTALS = { type: 'object', additionalProperties: { type: 'integer' }, description: 'Per key, its count over the window.' } as const;

/** Legacy-path evaluations (`POST /v1/intent/evaluate`) over the window, by outcome. */
export class EvaluationStatsDto {
  @ApiProperty({ description: 'Evaluations recorded in the window.' }) total!: number;
  @ApiProperty(TOTALS) by_outcome!: Record<string, number>;
  @ApiProperty(SERIES) series!: Record<string, number[]>;
}

/** Mandate-path decisions (`POST /v1/mcp-proxy/call`, the MCP proxy) over the window, by kind. */
export class DecisionStatsDto {
  @ApiProperty({ description: 'Decisions recorded in the window.' }) total!: number;
  @ApiProperty(TOTALS) by_kind!: Record<string, number>;
  @ApiProperty(SERIES) series!: Record<string, number[]>;
}

/** The approval requests waiting for a human now. */
export class ApprovalBacklogDto {
  @ApiProperty({ description: 'Pending approval requests (not past their deadline).' }) pending!: number;
  @ApiProperty({ nullable: true, type: Number, description: 'Age of the oldest pending request in seconds; null when none is pending.' })
  oldest_pending_age_seconds!: number | null;
}

/** How much of the legacy path the gateway decides without a human. */
export class AutoDecidedDto {
  @ApiProperty({ nullable: true, type: Number, minimum: 0, maximum: 1, description: '`automatic / (automatic + human)`; null with no evaluation.' })
  share!: number | null;
  @ApiProperty({ description: 'Evaluations the gateway answered on its own: allowed, denied, shadow_denied.' }) automatic!: number;
  @ApiProperty({ description: 'Evaluations a human decides or decided: pending_approval, approved.' }) human!: number;
}

export class ToolCountDto {
  @ApiProperty({ example: 'crm.contacts.delete' }) tool!: string;
  @ApiProperty() count!: number;
}

export class IntentionCountDto {
  @ApiProperty({ example: 'crm.contact_lookup' }) intent_label!: string;
  @ApiProperty() count!: number;
}

export class CardCountDto {
  @ApiProperty({ example: 'crm-card' }) card_id!: string;
  @ApiProperty() count!: number;
}

/** `GET /v1/stats`: the console overview (DESIGN 6.14) for the caller's org. */
export class StatsDto {
  @ApiProperty({ enum: STATS_WINDOWS }) window!: StatsWindow;
  @ApiProperty({ description: 'Width of one bucket: 60 (1h), 900 (24h), 3600 (7d).' }) bucket_seconds!: number;
  @ApiProperty({ type: [String], description: 'Start of each bucket, oldest first (UTC); the last one holds now and is still filling.' })
  buckets!: string[];
  @ApiProperty({ format: 'date-time', description: 'When the counts were read.' }) generated_at!: string;
  @ApiProperty({ type: EvaluationStatsDto }) evaluations!: EvaluationStatsDto;
  @ApiProperty({ type: DecisionStatsDto }) decisions!: DecisionStatsDto;
  @ApiProperty({ type: ApprovalBacklogDto }) approvals!: ApprovalBacklogDto;
  @ApiProperty({ type: AutoDecidedDto }) auto_decided!: AutoDecidedDto;
  @ApiProperty({ type: [ToolCountDto], description: 'Tools refused most (legacy `denied` and mandate `deny`/`deny_with_reroute`), at most 10.' })
  top_refused_tools!: ToolCountDto[];
  @ApiProperty({ type: [IntentionCountDto], description: 'Intentions evaluations matched, most used first, at most 10.' })
  intentions!: IntentionCountDto[];
  @ApiProperty({ type: [CardCountDto], description: 'Intent cards decisions were made under, most used first, at most 10.' })
  cards!: CardCountDto[];
}

/**
 * What one service knows of the overview (its own counts), for the gateway to compose into
 * StatsDto: in-process in embedded mode, over `GET /internal/stats/{part}` in distributed mode.
 */
export interface StatsPartDto {
  evaluations?: EvaluationStatsDto;
  decisions?: DecisionStatsDto;
  approvals?: ApprovalBacklogDto;
  refused_tools?: ToolCountDto[];
  intentions?: IntentionCountDto[];
  cards?: CardCountDto[];
}

export interface StatsPartApi {
  /** The part for `orgId`'s window ending at `at` (the gateway's one clock reading, so every part buckets alike). */
  read(orgId: string, window: StatsWindow, at: Date): Promise<StatsPartDto>;
}

/** The parts, by service; each service module provides its own. */
export const EVALUATION_STATS_API = Symbol('EVALUATION_STATS_API');
export const DECISION_STATS_API = Symbol('DECISION_STATS_API');
export const APPROVAL_STATS_API = Symbol('APPROVAL_STATS_API');

/** The internal route of each part (distributed mode). */
export const STATS_PART_PATHS = {
  evaluations: '/internal/stats/evaluations',
  decisions: '/internal/stats/decisions',
  approvals: '/internal/stats/approvals',
} as const;
