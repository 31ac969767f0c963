import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { APPROVALS_API, type ApprovalsApi } from '@igw/contracts';
import { cardsKey, revocationsKey, VERSION_BOARD, type VersionBoard } from '@igw/events';
import {
  AppError,
  assertJsonDepth,
  canonicalJson,
  CLOCK,
  DEFAULT_CALL_RETENTION,
  DependencyUnavailableError,
  METRICS,
  newId,
  NO_METRICS,
  type Caller,
  type CallRetention,
  type Clock,
  type Metrics,
} from '@igw/kernel';
import {
  canonicalApprovalAction,
  decide as engineDecide,
  retainedDecisionCall,
  type AnsweredDecision,
  type CompiledCard,
  type Decision,
  type DecisionRecord,
  type EngineResult,
  type ToolCallCommand,
  type ToolCallDecision,
} from '../../domain';
import { DECISION_REPOSITORY, type DecisionRepository } from '../ports/decision.repository.port';
import { IntentCardsReadModel } from '../read-model/intent-cards.read-model';
import { RevocationsReadModel } from '../read-model/revocations.read-model';
import { MANDATE_VERIFIER, mandateInvalid, requireMandate, type MandateVerifier, type VerifiedMandateClaims } from '../verification/mandate-verifier.port';

export const DECISION_ENGINE_OPTIONS = Symbol('DECISION_ENGINE_OPTIONS');
export interface DecisionEngineSettings {
  /** Ordered acr levels, weakest first (step_up). */
  acrLevels: readonly string[];
  /** How long the decided call is kept beside its record (DESIGN 6.16); default DEFAULT_CALL_RETENTION. */
  callRetention?: CallRetention;
}

/** A mandate verified for an audience and the intent card it names (DESIGN 6.9 steps 2–4). */
export interface VerifiedMandate {
  claims: VerifiedMandateClaims;
  card: CompiledCard;
}

/** sha256 of a canonical rendering: how a call is recognised again (approvals) and told apart in the audit. */
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The decision gate of the mandate path (DESIGN 6.9), behind `POST /v1/mcp-proxy/call` and every
 * `tools/call` of the MCP proxy (6.13); it speaks the domain: a ToolCallCommand in, a
 * ToolCallDecision out. The adapters map their wire to the command and the decision to their
 * answer (the REST status follows the kind). The API key was checked by the guard; then the
 * mandate (revocations current first), the org, the card, the decision engine, the ids an
 * approval or a deferral needs, and the record — durable before the answer.
 *
 * The allow path reads only memory: the version board (memory in embedded mode, one Redis round
 * trip in distributed mode) tells whether the card and revocation models are current, the JWKS
 * and verified tokens are cached, and the record is committed with the decisions of the same
 * moment (group commit). Anything that cannot be made sure of (board, registry, issuer,
 * approvals, store) is a 503, never an allow.
 */
@Injectable()
export class ToolCallDecisionGate {
  private readonly logger = new Logger('McpProxyDecision');

  constructor(
    @Inject(MANDATE_VERIFIER) private readonly verifier: MandateVerifier,
    private readonly revocations: RevocationsReadModel,
    private readonly cards: IntentCardsReadModel,
    @Inject(VERSION_BOARD) private readonly board: VersionBoard,
    @Inject(APPROVALS_API) private readonly approvals: ApprovalsApi,
    @Inject(DECISION_REPOSITORY) private readonly decisions: DecisionRepository,
    @Inject(DECISION_ENGINE_OPTIONS) private readonly settings: DecisionEngineSettings,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics = NO_METRICS,
  ) {}

  /** The whole gate, for a call that carries its mandate: verifyMandate for `command.audience`, then decide. */
  async verifyAndDecide(caller: Caller, token: string | undefined, command: ToolCallCommand): Promise<ToolCallDecision> {
    return this.decide(caller, await this.verifyMandate(caller, token, command.audience), command);
  }

  /**
   * Steps 5–9 and the record, for a mandate already verified for `command.audience` (the MCP
   * proxy verifies it once per HTTP request, before any MCP traffic). The command's action and
   * context must be plain JSON-like values: the rules' CEL reads them as they are.
   */
  async decide(caller: Caller, { claims, card }: VerifiedMandate, command: ToolCallCommand): Promise<ToolCallDecision> {
    // Rendered before the rules see it: a value nested too deep is a 400, never a stack overflow.
    const argumentsJson = canonicalJson(command.action.arguments ?? {}, 'action.arguments');
    if (command.context !== undefined) assertJsonDepth(command.context, 'context');
    const result = engineDecide({ mandate: claims, card, request: command }, { acrLevels: this.settings.acrLevels });
    return this.complete(caller, claims, card, command, argumentsJson, result);
  }

  /**
   * Steps 2–4 of DESIGN 6.9: the mandate verified for `audience` (revocations current first), the
   * org matched and the mandate's intent card found. Also what the MCP proxy checks each request
   * with. Refuses with `mandate_invalid` (missing, or as the verifier says), `mandate_org_mismatch`,
   * `intent_not_found`, or DependencyUnavailableError when the version board cannot be read.
   */
  async verifyMandate(caller: Caller, token: string | undefined, audience: string): Promise<VerifiedMandate> {
    if (typeof token !== 'string' || token.trim() === '') throw mandateInvalid('missing');
    // Both counters in one go: in distributed mode that is one Redis round trip (auto-pipelined).
    let versions: [number, number];
    try {
      versions = await Promise.all([this.board.current(cardsKey(caller.orgId)), this.board.current(revocationsKey(caller.orgId))]);
    } catch (err) {
      throw new DependencyUnavailableError('version board', err);
    }
    const catchUp = this.revocations.ensure(caller.orgId, versions[1]);
    if (catchUp) await catchUp;

    const claims = requireMandate(await this.verifier.verify(token.trim(), { audience, orgId: caller.orgId }));
    const found = this.cards.card(caller.orgId, claims.intent_id, versions[0]);
    const card = found instanceof Promise ? await found : found;
    if (card === null) throw new AppError('not_found', 'intent_not_found', `intent card ${claims.intent_id} is not installed in this organisation`);
    return { claims, card };
  }

  private async complete(
    caller: Caller,
    claims: VerifiedMandateClaims,
    card: CompiledCard,
    command: ToolCallCommand,
    argumentsJson: string,
    result: EngineResult,
  ): Promise<ToolCallDecision> {
    const now = this.clock.now();
    const decisionId = newId('dec');
    const action = command.action;
    let decision: Decision = result.decision;
    let approvalRequestId: string | null = null;
    let reviewId: string | null = null;

    if (result.assign === 'approval_request_id') {
      // The same action of the same mandate: operation, target and canonical arguments.
      const fingerprint = sha256(
        canonicalApprovalAction({ credId: claims.jti, operation: action.operation, targetResource: action.target_resource, argumentsJson }),
      );
      const used = await this.approvals.consume(caller, fingerprint);
      if (used) {
        // Approved once: this call passes, and the approval is spent.
        decision = { kind: 'allow' };
        approvalRequestId = used.id;
      } else {
        const pending = await this.approvals.create(caller, {
          source: 'mcp_proxy',
          intent_card_id: card.id,
          operation: action.operation.slice(0, 256),
          summary:
            `${action.operation}${action.target_resource ? ` on ${action.target_resource}` : ''} for ${claims.sub} (rule ${result.rule_id ?? '-'})`.slice(
              0,
              2000,
            ),
          user_id: claims.sub.slice(0, 256),
          fingerprint,
        });
        approvalRequestId = pending.id;
        decision = { kind: 'approval', approval_request_id: pending.id };
      }
    } else if (result.assign === 'review_id') {
      reviewId = newId('rev');
      decision = { kind: 'defer', review_id: reviewId };
    }

    const answered: AnsweredDecision = {
      kind: decision.kind,
      decision_id: decisionId,
      ...(result.rule_id !== null ? { rule_id: result.rule_id } : {}),
      ...stripKind(decision),
    };
    if (approvalRequestId !== null && decision.kind === 'allow') answered['approval_request_id'] = approvalRequestId;
    const record: DecisionRecord = {
      decisionId,
      orgId: caller.orgId,
      keyId: caller.keyId,
      kind: decision.kind,
      ruleId: result.rule_id,
      stage: result.stage,
      reason: decision.kind === 'deny' ? decision.reason : null,
      shadowKind: decision.kind === 'allow_with_shadow' ? decision.shadow_decision.kind : null,
      decision: answered,
      credId: claims.jti,
      intentId: claims.intent_id,
      promptId: claims.prompt_id ?? null,
      actor: claims.sub,
      audience: command.audience,
      surface: action.surface,
      operation: action.operation,
      targetResource: action.target_resource ?? null,
      argumentsSha256: sha256(argumentsJson),
      approvalRequestId,
      reviewId,
      reviewStatus: reviewId !== null ? 'pending' : null,
      reviewedAt: null,
      reviewedByKeyId: null,
      reviewNote: null,
      createdAt: now,
      call: retainedDecisionCall(command, this.settings.callRetention ?? DEFAULT_CALL_RETENTION),
    };
    // In the store before the answer (group commit): a deferred call is in the review queue the
    // moment the agent hears "defer", and no answered decision lives only in this process.
    await this.decisions.record(record);
    this.metrics.decisionMade(decision.kind);
    if (decision.kind === 'allow_with_log_extra') {
      this.logger.log({
        msg: 'decision log_fields',
        decision_id: decisionId,
        org_id: caller.orgId,
        cred_id: claims.jti,
        operation: action.operation,
        log_fields: decision.log_fields,
      });
    }
    return { decision: answered, mandate: claims };
  }
}

function stripKind(decision: Decision): Record<string, unknown> {
  const { kind: _kind, ...fields } = decision;
  return fields;
}
