import { Inject, Injectable, Optional } from '@nestjs/common';
import { APPROVALS_API, type ApprovalsApi, type EvaluateIntentRequestDto, type EvaluateIntentResponseDto } from '@igw/contracts';
import { CLOCK, METRICS, newId, NO_METRICS, type Caller, type Clock, type Metrics } from '@igw/kernel';
import { canonicalCall } from '../../domain/evaluation/call-fingerprint';
import { decideOutcome, needsApproval } from '../../domain/evaluation/outcome';
import { DEFAULT_CALL_RETENTION, retainedCall, type CallRetention } from '../../domain/evaluation/retained-call';
import { ClassificationCascade } from '../classification/classification-cascade';
import { classifyCall, dataElementsFor, decidedIntent } from '../evaluation/classify-call';
import { callHash, grantCallHash } from '../grants/call-hash';
import { GRANT_SIGNER, type GrantSigner } from '../grants/grant.port';
import { INTENT_EVENT_STORE, type IntentEventRecord, type IntentEventStore } from '../ports/intent-event.repository.port';
import { ActiveIntentionsReadModel } from '../read-model/active-intentions.read-model';
import { CALL_RETENTION } from '../retention/call-retention.options';

/**
 * `POST /v1/intent/evaluate` (DESIGN 6.4): classify the call against the org's active intentions
 * (exact read model, cascade of layers), intersect data elements, decide the outcome, create or
 * use an approval, sign a grant bound to the call (tool name and canonical arguments), and record
 * the intent event — durably, before answering.
 *
 * Order matters for "fail closed": nothing is answered that is not recorded; the read model
 * fails with 503 rather than decide on a stale policy; approvals are reached only for intentions
 * that require them, so an approvals outage never blocks other calls.
 */
@Injectable()
export class EvaluateIntentUseCase {
  constructor(
    private readonly intentions: ActiveIntentionsReadModel,
    private readonly cascade: ClassificationCascade,
    @Inject(APPROVALS_API) private readonly approvals: ApprovalsApi,
    @Inject(GRANT_SIGNER) private readonly grants: GrantSigner,
    @Inject(INTENT_EVENT_STORE) private readonly events: IntentEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics = NO_METRICS,
    @Optional() @Inject(CALL_RETENTION) private readonly retention: CallRetention = DEFAULT_CALL_RETENTION,
  ) {}

  async execute(caller: Caller, request: EvaluateIntentRequestDto): Promise<EvaluateIntentResponseDto> {
    const started = performance.now();
    const now = this.clock.now();
    const call = request.tool_call;
    const shadowMode = request.shadow_mode === true;
    // Validates the arguments' depth too (400 before any work is done).
    const canonical = canonicalCall({
      orgId: caller.orgId,
      userId: request.user_id,
      sessionId: request.session_id,
      toolName: call.name,
      arguments: call.arguments,
    });

    const org = await this.intentions.forOrg(caller.orgId);
    const callToClassify = {
      toolName: call.name,
      arguments: call.arguments,
      conversationContext: request.conversation_context,
      dataSourceId: request.data_source_id,
    };
    const { classified, match, ...first } = await classifyCall(this.cascade, org, callToClassify);
    const { verdict } = classified;
    let { intention, dataElements } = first;

    // Consuming is the atomic check: of concurrent identical calls, one gets the approval.
    // Only calls that need an approval are hashed (sha256 stays off the common path).
    const fingerprint = needsApproval(intention, match) && dataElements.ok ? callHash(canonical) : null;
    const used = fingerprint !== null ? await this.approvals.consume(caller, fingerprint) : null;
    // The operator may have approved the call as another intention than the candidate ("approve
    // as…"): the grant is for the one they chose, if it is still active.
    if (used !== null && used.intent_label !== null && intention !== null && used.intent_label !== intention.label) {
      intention = org.byLabel(used.intent_label) ?? null;
      dataElements = dataElementsFor(intention, callToClassify);
    }
    const decision = decideOutcome({ intention, match, dataElements, shadowMode, approvedApprovalAvailable: used !== null });

    const eventId = newId('iev');
    const { label, intentClass } = decidedIntent(intention, classified);
    let approvalRequestId: string | null = used?.id ?? null;
    if (decision.needsApprovalRequest && fingerprint !== null) {
      const uncertain = match === 'uncertain';
      const pending = await this.approvals.create(caller, {
        source: 'evaluate',
        intent_label: label,
        tool_name: call.name,
        summary: `${call.name} as ${label}${uncertain ? ' (uncertain match)' : ''}${request.user_id ? ` for user ${request.user_id}` : ''}`,
        user_id: request.user_id,
        fingerprint,
        reason_code: uncertain ? 'uncertain_match' : 'approval_required',
        candidates: uncertain ? verdict.candidates.map((c) => ({ intent_label: c.label, intention_id: c.intentionId, confidence: c.confidence })) : [],
        tool_call: { name: call.name, ...(call.arguments !== undefined ? { arguments: call.arguments } : {}) },
        ...(request.conversation_context !== undefined ? { conversation_context: request.conversation_context } : {}),
      });
      approvalRequestId = pending.id;
    }

    const approved = dataElements.ok ? dataElements.approved : [];
    let grant: string | undefined;
    let grantJti: string | null = null;
    if (decision.grantable && intention) {
      grantJti = newId('grt');
      grant = await this.grants.sign(
        {
          orgId: caller.orgId,
          userId: request.user_id ?? null,
          intentLabel: intention.label,
          dataElements: approved,
          intentEventId: eventId,
          call: grantCallHash({ toolName: call.name, arguments: call.arguments }),
          ttlMinutes: intention.ttlMinutes,
          issuedAt: now,
        },
        grantJti,
      );
    }

    const processingTimeMs = Math.round(performance.now() - started);
    const record: IntentEventRecord = {
      id: eventId,
      orgId: caller.orgId,
      outcome: decision.outcome,
      intentLabel: label,
      intentClass,
      confidence: classified.confidence,
      toolName: call.name,
      userId: request.user_id ?? null,
      sessionId: request.session_id ?? null,
      conversationId: request.conversation_id ?? null,
      shadowMode,
      policyId: decision.policyId,
      approvalRequestId,
      dataElements: approved,
      processingTimeMs,
      createdAt: now,
      evidence: classified.evidence,
      grantJti,
      call: retainedCall({ toolName: call.name, arguments: call.arguments, conversationContext: request.conversation_context }, this.retention),
    };
    await this.events.record(record);
    this.metrics.intentEvaluated(decision.outcome, classified.evidence.classification_method);

    return {
      outcome: decision.outcome,
      intent_label: label,
      intent_event_id: eventId,
      intent_class: intentClass,
      confidence: classified.confidence,
      data_elements: approved,
      shadow_mode: shadowMode,
      processing_time_ms: processingTimeMs,
      approval_request_id: approvalRequestId,
      ...(grant !== undefined ? { grant } : {}),
      policy_id: decision.policyId,
      classification_evidence: classified.evidence,
      reason: decision.reason,
      ...(dataElements.ok ? {} : { refused_fields: dataElements.refused }),
    };
  }
}
