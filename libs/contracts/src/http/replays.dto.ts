import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { EVALUATION_OUTCOMES, type EvaluationOutcome } from '@igw/kernel';
import { OptionalIntRange } from './dto-rules';
import { DECISION_KINDS, InstallIntentCardDto, type DecisionKind } from './intent-cards.dto';
import { CreateIntentionDto, UpdateIntentionDto } from './intentions.dto';

/** What `POST /v1/replays` replays (DESIGN 6.16): draft intentions (legacy path) or a draft intent card (mandate path). */
export const REPLAY_KINDS = ['intentions', 'card'] as const;
export type ReplayKind = (typeof REPLAY_KINDS)[number];

/** One draft change of an intention: `create` (counts as active), `update` (its fields as in PATCH) or `archive`. */
export const INTENTION_CHANGE_ACTIONS = ['create', 'update', 'archive'] as const;
export type IntentionChangeAction = (typeof INTENTION_CHANGE_ACTIONS)[number];

/** Calls one replay re-decides at most (DESIGN 6.16). */
export const REPLAY_LIMIT = { default: 10_000, max: 10_000 } as const;
/** Changed calls one replay page lists. */
export const REPLAY_PAGE_SIZE = 200;
/** Draft changes one replay may carry. */
export const REPLAY_MAX_CHANGES = 100;

/**
 * The draft's body type follows its action: a create is validated as `POST /v1/intentions`, an
 * update as `PATCH /v1/intentions/{id}`. Without the parent object (the compiled body check asks
 * with none) there is no single type, so that check leaves the body to class-validator.
 */
const intentionTypeOf = (options?: { object?: Record<string, unknown> }) =>
  (options?.object === undefined ? undefined : options.object['action'] === 'create' ? CreateIntentionDto : UpdateIntentionDto) as unknown as new () => object;

@ApiExtraModels(CreateIntentionDto, UpdateIntentionDto)
export class IntentionChangeDto {
  @ApiProperty({ enum: INTENTION_CHANGE_ACTIONS })
  @IsIn(INTENTION_CHANGE_ACTIONS, { message: `action must be one of ${INTENTION_CHANGE_ACTIONS.join(', ')}` })
  action!: IntentionChangeAction;

  @ApiPropertyOptional({ description: 'The intention an `update` or `archive` changes (not for `create`).', example: 'int_01HZX3' })
  @ValidateIf((o: IntentionChangeDto) => o.action !== 'create')
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  id?: string;

  @ApiPropertyOptional({
    description: '`create`: the body of `POST /v1/intentions`; `update`: the body of `PATCH /v1/intentions/{id}`. Not for `archive`.',
    anyOf: [{ $ref: getSchemaPath(CreateIntentionDto) }, { $ref: getSchemaPath(UpdateIntentionDto) }],
  })
  @ValidateIf((o: IntentionChangeDto) => o.action !== 'archive')
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(intentionTypeOf)
  intention?: CreateIntentionDto | UpdateIntentionDto;
}

/** Body of `POST /v1/replays` (DESIGN 6.16). */
export class ReplayRequestDto {
  @ApiProperty({ enum: REPLAY_KINDS, description: '`intentions`: draft intention changes (legacy path). `card`: a draft intent card (mandate path).' })
  @IsIn(REPLAY_KINDS, { message: `kind must be one of ${REPLAY_KINDS.join(', ')}` })
  kind!: ReplayKind;

  @ApiPropertyOptional({
    type: [IntentionChangeDto],
    maxItems: REPLAY_MAX_CHANGES,
    description: 'For `intentions`: the draft, applied in order over the active intentions.',
  })
  @ValidateIf((o: ReplayRequestDto) => o.kind === 'intentions')
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(REPLAY_MAX_CHANGES)
  @ValidateNested({ each: true })
  @Type(() => IntentionChangeDto)
  changes?: IntentionChangeDto[];

  @ApiPropertyOptional({
    type: InstallIntentCardDto,
    description: "For `card`: a whole card as in `POST /v1/intent-cards`; an installed card's `id` replaces it, another adds it.",
  })
  @ValidateIf((o: ReplayRequestDto) => o.kind === 'card')
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => InstallIntentCardDto)
  card?: InstallIntentCardDto;

  @ApiPropertyOptional({
    description: 'Window start (ISO 8601 with a zone, or a date); default: the start of the retention window.',
    example: '2026-11-26T00:00:00Z',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  since?: string;

  @ApiPropertyOptional({ description: 'Window end, exclusive (ISO 8601 with a zone, or a date); default: now.', example: '2026-11-27T00:00:00Z' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  until?: string;

  /** Replay at most this many calls, oldest first. */
  @OptionalIntRange(1, REPLAY_LIMIT.max, REPLAY_LIMIT.default)
  limit?: number;

  @ApiPropertyOptional({ description: '`next_cursor` of the previous answer, sent with the same body: the next page of changed calls.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  cursor?: string;
}

const REPLAY_RESULTS = [...EVALUATION_OUTCOMES, ...DECISION_KINDS.filter((k) => !(EVALUATION_OUTCOMES as readonly string[]).includes(k))];

/** A call's decision in a replay: `outcome` (and `intent_label`) on the legacy path, `kind` on the mandate path. */
export class ReplayDecisionDto {
  @ApiPropertyOptional({ enum: EVALUATION_OUTCOMES, description: '`kind: "intentions"`.' }) outcome?: EvaluationOutcome;
  @ApiPropertyOptional({ description: '`kind: "intentions"`.' }) intent_label?: string;
  @ApiPropertyOptional({ enum: DECISION_KINDS, description: '`kind: "card"`: the decision kind.' }) kind?: DecisionKind;
}

export class ReplayTransitionDto {
  @ApiProperty({ enum: REPLAY_RESULTS, description: 'An outcome (`intentions`) or a decision kind (`card`).' }) from!: EvaluationOutcome | DecisionKind;
  @ApiProperty({ enum: REPLAY_RESULTS }) to!: EvaluationOutcome | DecisionKind;
  @ApiProperty({ type: 'integer' }) count!: number;
}

export class ReplayedCallDto {
  @ApiProperty({ description: 'The evaluation (`intent_event_id`, `intentions`) or decision (`decision_id`, `card`) whose call was replayed.' }) id!: string;
  @ApiProperty() tool_name!: string;
  @ApiProperty({ type: ReplayDecisionDto, description: 'As recorded.' }) before!: ReplayDecisionDto;
  @ApiProperty({ type: ReplayDecisionDto, description: 'Against the active intentions plus the draft.' }) after!: ReplayDecisionDto;
}

/** Answer of `POST /v1/replays`: every page describes the whole window; `calls` is one page of the changed ones. */
export class ReplayResultDto {
  @ApiProperty({ type: 'integer', description: 'Calls of the window re-decided (all of them: a replay that cannot finish answers 503).' }) replayed!: number;
  @ApiProperty({
    type: [ReplayTransitionDto],
    description: 'Changed (from, to) outcome pairs with their counts; a label change under the same outcome is in `calls` only.',
  })
  transitions!: ReplayTransitionDto[];
  @ApiProperty({ type: [ReplayedCallDto], description: `Changed calls, oldest first, at most ${REPLAY_PAGE_SIZE}.` }) calls!: ReplayedCallDto[];
  @ApiProperty({ nullable: true, type: String, description: 'Send it as `cursor` with the same body for the next changed calls; null on the last page.' })
  next_cursor!: string | null;
}

/** Body of the registry's `POST /internal/intentions/preview` (PolicyRegistryApi.previewIntentionChanges). */
export class IntentionPreviewDto {
  @IsArray()
  @ArrayMaxSize(REPLAY_MAX_CHANGES)
  @ValidateNested({ each: true })
  @Type(() => IntentionChangeDto)
  changes!: IntentionChangeDto[];
}

/** Body of the registry's `POST /internal/intent-cards/preview` (PolicyRegistryApi.previewIntentCard). */
export class IntentCardPreviewDto {
  @IsObject()
  @ValidateNested()
  @Type(() => InstallIntentCardDto)
  card!: InstallIntentCardDto;
}

/**
 * How the replay route reaches the card replay (DESIGN 6.16): the decision proxy owns the mandate
 * path's kept calls and its decision engine, so it serves `kind: "card"`; the evaluator's
 * `POST /v1/replays` hands such a body over. In-process in embedded mode (CARD_REPLAY_API,
 * exported by DecisionProxyModule), `POST /internal/replays/card` in distributed mode (internal
 * token, caller headers naming the org).
 */
export interface CardReplayApi {
  replayCard(caller: { orgId: string; keyId: string }, request: ReplayRequestDto): Promise<ReplayResultDto>;
}

export const CARD_REPLAY_API = Symbol('CARD_REPLAY_API');
