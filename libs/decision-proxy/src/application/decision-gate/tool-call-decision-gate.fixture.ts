import type {
  ApprovalDto,
  ApprovalsApi,
  CreateApprovalRequestDto,
  IntentCardEventV1,
  IntentCardsSnapshotDto,
  MandateIssuerApi,
  PolicyRegistryApi,
  RevocationsDto,
} from '@igw/contracts';
import { cardsKey, MemoryVersionBoard, type VersionBoard } from '@igw/events';
import { AppError, FixedClock, type Caller, type CallRetention } from '@igw/kernel';
import { intentCardEventFixture, rejectionOf } from '@igw/testing/unit';
import { DEFAULT_ACR_LEVELS, type DecisionRecord, type ToolCallCommand } from '../../domain';
import type { DecisionRepository, ResolveReviewResult } from '../ports/decision.repository.port';
import { IntentCardsReadModel } from '../read-model/intent-cards.read-model';
import { RevocationsReadModel } from '../read-model/revocations.read-model';
import type { MandateVerification, MandateVerifier, MandateVerifyOptions, VerifiedMandateClaims } from '../verification/mandate-verifier.port';
import { InMemoryRevocationSet } from '../verification/revocation-set';
import { ToolCallDecisionGate } from './tool-call-decision-gate';

/** The decision gate's specs: its ports faked (verifier, registry, issuer, approvals, store), the read models and board real. */

export const T0 = new Date('2026-11-22T12:00:00.000Z');
export const ORG = 'org_1';
export const CALLER: Caller = { orgId: ORG, keyId: 'key_1', scope: 'read_only' };
export const TOKEN = 'header.payload.signature';

export const SCOPE = {
  operations: ['crm.contacts.read', 'crm.contacts.update', 'crm.contacts.export'],
  resources: ['crm://contacts/*'],
  forbidden_operations: ['crm.*.delete'],
};

/** The card's rules: `{id, when: <CEL over action, context, mandate>, decision}`, first match wins. */
export const RULES: IntentCardEventV1['rules'] = [
  { id: 'export-needs-approval', when: 'action.operation == "crm.contacts.export"', decision: { kind: 'approval' } },
  { id: 'updates-reviewed', when: 'action.operation == "crm.contacts.update"', decision: { kind: 'defer' } },
  { id: 'no-secrets', when: 'has(action.arguments.secret)', decision: { kind: 'deny', reason: 'secret_argument', message: 'no secrets' } },
  {
    id: 'log-bulk',
    when: 'has(action.arguments.limit) && action.arguments.limit > 100',
    decision: { kind: 'allow_with_log_extra', log_fields: { bulk: true } },
  },
];

export const cardEvent = (id: string, over: Partial<IntentCardEventV1> = {}): IntentCardEventV1 =>
  intentCardEventFixture(id, { allowed_scope: structuredClone(SCOPE), rules: structuredClone(RULES), ...over });

export function claims(over: Partial<VerifiedMandateClaims> = {}): VerifiedMandateClaims {
  return {
    iss: 'intent-gateway',
    sub: 'agent-1',
    aud: 'crm-api',
    org: ORG,
    intent_id: 'crm',
    prompt_id: 'prm_1',
    scope: structuredClone(SCOPE),
    ctx: {},
    exp: Math.floor(T0.getTime() / 1000) + 300,
    jti: 'mnd_1',
    kid: 'k1',
    ...over,
  };
}

/** Answers the verdict it is given; like the real one, refuses a revoked jti from the shared set. */
export class FakeVerifier implements MandateVerifier {
  verdict: MandateVerification = { ok: true, claims: claims() };
  calls: [string, MandateVerifyOptions][] = [];
  constructor(private readonly revoked: InMemoryRevocationSet) {}
  async verify(token: string, options: MandateVerifyOptions): Promise<MandateVerification> {
    this.calls.push([token, options]);
    if (this.verdict.ok && this.revoked.isRevoked(this.verdict.claims.jti)) return { ok: false, reason: 'revoked' };
    return structuredClone(this.verdict);
  }
}

export class FakeRegistry implements Pick<PolicyRegistryApi, 'intentCards' | 'orgsWith'> {
  snapshot: IntentCardsSnapshotDto = { version: 1, cards: [cardEvent('crm')] };
  calls = 0;
  async intentCards(): Promise<IntentCardsSnapshotDto> {
    this.calls++;
    return structuredClone(this.snapshot);
  }
  async orgsWith() {
    return { org_ids: [ORG] };
  }
}

export class FakeIssuer implements Pick<MandateIssuerApi, 'revocationsSince' | 'orgsWithRevocations'> {
  page: RevocationsDto = { version: 0, revoked: [] };
  async revocationsSince(): Promise<RevocationsDto> {
    return structuredClone(this.page);
  }
  async orgsWithRevocations() {
    return { org_ids: [ORG] };
  }
}

export class FakeApprovals implements ApprovalsApi {
  /** fingerprint → an approved, unused approval. */
  readonly approved = new Map<string, ApprovalDto>();
  readonly created: { caller: { orgId: string; keyId: string }; request: CreateApprovalRequestDto }[] = [];
  readonly consumed: string[] = [];
  private n = 0;

  async create(caller: { orgId: string; keyId: string }, request: CreateApprovalRequestDto): Promise<ApprovalDto> {
    this.created.push({ caller, request });
    return this.approval(`apr_${++this.n}`, 'pending', request);
  }
  async consume(_caller: { orgId: string; keyId: string }, fingerprint: string): Promise<ApprovalDto | null> {
    this.consumed.push(fingerprint);
    const found = this.approved.get(fingerprint) ?? null;
    this.approved.delete(fingerprint);
    return found;
  }
  /** An operator approves the request created with this fingerprint. */
  approve(request: CreateApprovalRequestDto, id: string): void {
    this.approved.set(request.fingerprint, this.approval(id, 'approved', request));
  }
  private approval(id: string, status: ApprovalDto['status'], r: CreateApprovalRequestDto): ApprovalDto {
    return {
      id,
      org_id: ORG,
      status,
      source: r.source,
      intent_label: null,
      intent_card_id: r.intent_card_id ?? null,
      tool_name: null,
      operation: r.operation ?? null,
      summary: r.summary,
      requested_by_key_id: 'key_1',
      user_id: r.user_id ?? null,
      created_at: T0.toISOString(),
      expires_at: new Date(T0.getTime() + 900_000).toISOString(),
      decided_at: null,
      decided_by_key_id: null,
      reason: null,
      reason_code: null,
      candidates: [],
      tool_call: null,
    };
  }
}

export class FakeRepository implements DecisionRepository {
  readonly recorded: DecisionRecord[] = [];
  failure: Error | null = null;
  async record(record: DecisionRecord): Promise<void> {
    if (this.failure) throw this.failure;
    this.recorded.push(record);
  }
  async listDecisions(): Promise<DecisionRecord[]> {
    return [];
  }
  async listReviews(): Promise<DecisionRecord[]> {
    return [];
  }
  async findByDecisionId(): Promise<DecisionRecord | null> {
    return null;
  }
  async resolveReview(): Promise<ResolveReviewResult> {
    return { ok: false, reason: 'not_found' };
  }
}

export const request = (over: Partial<ToolCallCommand['action']> = {}, rest: Partial<ToolCallCommand> = {}): ToolCallCommand => ({
  action: { surface: 'sdk', operation: 'crm.contacts.read', arguments: { id: 42 }, target_resource: 'crm://contacts/42', ...over },
  context: { actor: 'agent-1', prompt_id: 'prm_1' },
  audience: 'crm-api',
  ...rest,
});

export function nested(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < depth; i++) v = { child: v };
  return v;
}

export const failure = (p: Promise<unknown>): Promise<AppError> => rejectionOf(p, AppError);

/** A gate over fresh fakes, org_1's cards at version 1 on the board; `build` makes another over the same fakes. */
export class GateFixture {
  readonly clock = new FixedClock(T0);
  readonly revocationSet = new InMemoryRevocationSet(this.clock);
  readonly verifier = new FakeVerifier(this.revocationSet);
  readonly registry = new FakeRegistry();
  readonly issuer = new FakeIssuer();
  readonly board = new MemoryVersionBoard();
  readonly approvals = new FakeApprovals();
  readonly repository = new FakeRepository();
  readonly gate = this.build();

  static async create(): Promise<GateFixture> {
    const fixture = new GateFixture();
    await fixture.board.advance(cardsKey(ORG), 1);
    return fixture;
  }

  build(over: { board?: VersionBoard; callRetention?: CallRetention } = {}): ToolCallDecisionGate {
    const board = over.board ?? this.board;
    return new ToolCallDecisionGate(
      this.verifier,
      new RevocationsReadModel(this.revocationSet, this.issuer, board),
      new IntentCardsReadModel(this.registry, board),
      board,
      this.approvals,
      this.repository,
      { acrLevels: DEFAULT_ACR_LEVELS, ...(over.callRetention ? { callRetention: over.callRetention } : {}) },
      this.clock,
    );
  }
}
