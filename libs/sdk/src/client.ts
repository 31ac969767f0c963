import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { GatewayError } from './errors';
import type { paths } from './generated/api';
import { paginate } from './paging';
import { createTransport, type RetryEvent, type RetryOptions } from './transport';
import type {
  Approval,
  ApproveApproval,
  DenyApproval,
  DecisionRecord,
  DecisionsQuery,
  ApprovalsQuery,
  DispensedMandate,
  DispenseRequest,
  EvaluateRequest,
  Evaluation,
  HistoryQuery,
  InstallIntentCard,
  IntentCard,
  IntentEvent,
  Intention,
  IntentionsQuery,
  CreateIntention,
  CreateIntentionExample,
  IntentionExample,
  UpdateIntention,
  Jwks,
  Stats,
  StatsWindow,
  MandateView,
  McpProxyCallResponse,
  McpServer,
  Page,
  ProxyAction,
  RegisterMcpServer,
  RevokedMandate,
  ToolCall,
  VerifyGrantResponse,
  ReplayRequest,
  ReplayResult,
} from './types';

export interface GatewayClientOptions {
  /** e.g. `http://localhost:8080` (no `/v1`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Deadline of each attempt (default 30 s). */
  timeoutMs?: number;
  /** Retries of idempotent requests on 429/503 (default 3 attempts); `false` for none. */
  retry?: RetryOptions | false;
  onRetry?: (event: RetryEvent) => void;
  /** A fetch of your own (tests, proxies); called with a Request. */
  fetch?: (input: Request) => Promise<Response>;
  headers?: Record<string, string>;
  /** Injected in tests: the wait between attempts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Per call: the caller's abort signal and/or a deadline for the whole call (retries included). */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type EvaluateOptions = Omit<EvaluateRequest, 'tool_call'> & CallOptions;

/** A decision of the proxy with the HTTP status it came with (200, 202, 403 or 428). */
export interface ProxyDecision extends McpProxyCallResponse {
  status: number;
}

type Result<T> = { data?: T; error?: unknown; response: Response };

function signalOf(opts: CallOptions | undefined): AbortSignal | undefined {
  const signals = [opts?.signal, opts?.timeoutMs !== undefined ? AbortSignal.timeout(opts.timeoutMs) : undefined].filter((s): s is AbortSignal => !!s);
  return signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
}

/** The decoded (unverified) `aud` of a JWT, to default the proxy call's audience. */
function audienceOf(credential: string): string | undefined {
  try {
    const payload = credential.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const aud = (JSON.parse(json) as { aud?: unknown }).aud;
    return typeof aud === 'string' ? aud : undefined;
  } catch {
    return undefined;
  }
}

/** The typed client of the Intent Gateway API. `api` is the raw openapi-fetch client for any route. */
export class GatewayClient {
  readonly api: Client<paths>;

  constructor(readonly options: GatewayClientOptions) {
    const transport = createTransport({
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      retry: options.retry,
      onRetry: options.onRetry,
      sleep: options.sleep,
    });
    this.api = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: transport, headers: options.headers });
    if (options.apiKey) {
      const auth: Middleware = {
        onRequest: ({ request }) => {
          if (!request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${options.apiKey}`);
          return request;
        },
      };
      this.api.use(auth);
    }
  }

  /** The data of a 2xx answer; any other status is thrown as a GatewayError. */
  private async unwrap<T>(pending: Promise<Result<T>>): Promise<T> {
    const { data, error, response } = await pending;
    if (!response.ok) throw GatewayError.from(response.status, error, response.headers);
    return data as T;
  }

  // --- legacy path --------------------------------------------------------------------------

  /** POST /v1/intent/evaluate: the outcome, and a grant when the call may proceed. */
  evaluate(toolCall: ToolCall, opts: EvaluateOptions = {}): Promise<Evaluation> {
    const { signal, timeoutMs, ...rest } = opts;
    return this.unwrap(this.api.POST('/v1/intent/evaluate', { body: { ...rest, tool_call: toolCall }, signal: signalOf({ signal, timeoutMs }) }));
  }

  verifyGrant(token: string, toolCall?: ToolCall, opts?: CallOptions): Promise<VerifyGrantResponse> {
    return this.unwrap(this.api.POST('/v1/grants/verify', { body: { token, ...(toolCall ? { tool_call: toolCall } : {}) }, signal: signalOf(opts) }));
  }

  /** GET /v1/intent/history, every event (newest first) across pages. */
  history(query: HistoryQuery = {}, opts?: CallOptions): AsyncGenerator<IntentEvent, void, undefined> {
    return paginate((cursor) => this.historyPage({ ...query, ...(cursor ? { cursor } : {}) }, opts));
  }

  historyPage(query: HistoryQuery & { cursor?: string } = {}, opts?: CallOptions): Promise<Page<IntentEvent>> {
    return this.unwrap(this.api.GET('/v1/intent/history', { params: { query }, signal: signalOf(opts) }));
  }

  /**
   * POST /v1/replays (policy_write): the org's kept calls re-decided against the active intentions
   * plus `changes`; nothing is recorded. One page of changed calls; pass `next_cursor` back as
   * `cursor` with the same request for the next.
   */
  replay(request: ReplayRequest, opts?: CallOptions): Promise<ReplayResult> {
    return this.unwrap(this.api.POST('/v1/replays', { body: request, signal: signalOf(opts) }));
  }

  // --- mandate path -------------------------------------------------------------------------

  dispense(body: DispenseRequest, opts?: CallOptions): Promise<DispensedMandate> {
    return this.unwrap(this.api.POST('/v1/mandate/dispense', { body, signal: signalOf(opts) }));
  }

  /** Extends an unexpired mandate: same cred_id, later exp (a second refresh too soon is a 429 `cooldown`). */
  refresh(credId: string, ttlSeconds?: number, opts?: CallOptions): Promise<DispensedMandate & { refresh_count?: number }> {
    return this.unwrap(
      this.api.POST('/v1/mandate/refresh', {
        body: { cred_id: credId, ...(ttlSeconds !== undefined ? { ttl_seconds: ttlSeconds } : {}) },
        signal: signalOf(opts),
      }),
    );
  }

  /** Revokes a mandate (idempotent) and the credential its broker minted. */
  revoke(credId: string, reason?: string, opts?: CallOptions): Promise<RevokedMandate> {
    return this.unwrap(this.api.POST('/v1/mandate/revoke', { body: { cred_id: credId, ...(reason !== undefined ? { reason } : {}) }, signal: signalOf(opts) }));
  }

  inspectMandate(credId: string, opts?: CallOptions): Promise<MandateView> {
    return this.unwrap(this.api.GET('/v1/mandate/{cred_id}', { params: { path: { cred_id: credId } }, signal: signalOf(opts) }));
  }

  jwks(opts?: CallOptions): Promise<Jwks> {
    return this.unwrap(this.api.GET('/v1/mandate/jwks', { signal: signalOf(opts) }));
  }

  /**
   * The mandate path: `withMandate(credential).call(action)` asks POST /v1/mcp-proxy/call with the
   * mandate in `X-Service-Mandate`. Every decision is returned (deny and approval included, with
   * their status); only errors (401 mandate_invalid, 403 mandate_org_mismatch, …) are thrown.
   * The audience defaults to the mandate's own `aud`.
   */
  withMandate(credential: string, defaults: { audience?: string; context?: Record<string, unknown> } = {}) {
    return {
      call: async (action: ProxyAction, opts: CallOptions & { audience?: string; context?: Record<string, unknown> } = {}): Promise<ProxyDecision> => {
        const audience = opts.audience ?? defaults.audience ?? audienceOf(credential) ?? '';
        const context = opts.context ?? defaults.context;
        const { data, error, response } = await this.api.POST('/v1/mcp-proxy/call', {
          params: { header: { 'X-Service-Mandate': credential } },
          body: { action, audience, ...(context ? { context } : {}) },
          signal: signalOf(opts),
        });
        const body = (data ?? error) as unknown;
        if (typeof body === 'object' && body !== null && 'decision' in body) return { ...(body as McpProxyCallResponse), status: response.status };
        throw GatewayError.from(response.status, body, response.headers);
      },
    };
  }

  // --- intentions, cards, MCP servers, approvals ----------------------------------------------

  createIntention(body: CreateIntention, opts?: CallOptions): Promise<Intention> {
    return this.unwrap(this.api.POST('/v1/intentions', { body, signal: signalOf(opts) }));
  }

  publishIntention(id: string, opts?: CallOptions): Promise<Intention> {
    return this.unwrap(this.api.POST('/v1/intentions/{id}/publish', { params: { path: { id } }, signal: signalOf(opts) }));
  }

  archiveIntention(id: string, opts?: CallOptions): Promise<Intention> {
    return this.unwrap(this.api.POST('/v1/intentions/{id}/archive', { params: { path: { id } }, signal: signalOf(opts) }));
  }

  /** Changes the given fields of a draft or active intention (a new version). */
  updateIntention(id: string, changes: UpdateIntention, opts?: CallOptions): Promise<Intention> {
    return this.unwrap(this.api.PATCH('/v1/intentions/{id}', { params: { path: { id } }, body: changes, signal: signalOf(opts) }));
  }

  /** Teaches an intention by example: calls like it are (`covered: true`) or are never (`false`) this intention. */
  addIntentionExample(id: string, example: CreateIntentionExample, opts?: CallOptions): Promise<IntentionExample> {
    return this.unwrap(this.api.POST('/v1/intentions/{id}/examples', { params: { path: { id } }, body: example, signal: signalOf(opts) }));
  }

  /** Every example of an intention (newest first) across pages. */
  intentionExamples(id: string, opts?: CallOptions): AsyncGenerator<IntentionExample, void, undefined> {
    return paginate((cursor) =>
      this.unwrap(this.api.GET('/v1/intentions/{id}/examples', { params: { path: { id }, query: cursor ? { cursor } : {} }, signal: signalOf(opts) })),
    );
  }

  async removeIntentionExample(id: string, exampleId: string, opts?: CallOptions): Promise<void> {
    await this.unwrap(
      this.api.DELETE('/v1/intentions/{id}/examples/{example_id}', { params: { path: { id, example_id: exampleId } }, signal: signalOf(opts) }),
    );
  }

  /** Every intention (newest first) across pages. */
  intentions(query: IntentionsQuery = {}, opts?: CallOptions): AsyncGenerator<Intention, void, undefined> {
    return paginate((cursor) =>
      this.unwrap(this.api.GET('/v1/intentions', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } }, signal: signalOf(opts) })),
    );
  }

  /** Installs a card; installing an existing id replaces it (version + 1). */
  installCard(card: InstallIntentCard, opts?: CallOptions): Promise<IntentCard> {
    return this.unwrap(this.api.POST('/v1/intent-cards', { body: card, signal: signalOf(opts) }));
  }

  cards(opts?: CallOptions): AsyncGenerator<IntentCard, void, undefined> {
    return paginate((cursor) => this.unwrap(this.api.GET('/v1/intent-cards', { params: { query: cursor ? { cursor } : {} }, signal: signalOf(opts) })));
  }

  addMcpServer(body: RegisterMcpServer, opts?: CallOptions): Promise<McpServer> {
    return this.unwrap(this.api.POST('/v1/mcp-servers', { body, signal: signalOf(opts) }));
  }

  mcpServers(opts?: CallOptions): AsyncGenerator<McpServer, void, undefined> {
    return paginate((cursor) => this.unwrap(this.api.GET('/v1/mcp-servers', { params: { query: cursor ? { cursor } : {} }, signal: signalOf(opts) })));
  }

  async removeMcpServer(id: string, opts?: CallOptions): Promise<void> {
    await this.unwrap(this.api.DELETE('/v1/mcp-servers/{id}', { params: { path: { id } }, signal: signalOf(opts) }));
  }

  /** GET /v1/mcp-proxy/decisions: every decision (newest first) across pages, by mandate, kind and time. */
  decisions(query: DecisionsQuery = {}, opts?: CallOptions): AsyncGenerator<DecisionRecord, void, undefined> {
    return paginate((cursor) =>
      this.unwrap(this.api.GET('/v1/mcp-proxy/decisions', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } }, signal: signalOf(opts) })),
    );
  }

  /** GET /v1/stats: the org's traffic over a window (the console overview); default 1h. */
  stats(window: StatsWindow = '1h', opts?: CallOptions): Promise<Stats> {
    return this.unwrap(this.api.GET('/v1/stats', { params: { query: { window } }, signal: signalOf(opts) }));
  }

  /** GET /v1/mcp-proxy/decisions/{decision_id}: one recorded decision. */
  decision(decisionId: string, opts?: CallOptions): Promise<DecisionRecord> {
    return this.unwrap(this.api.GET('/v1/mcp-proxy/decisions/{decision_id}', { params: { path: { decision_id: decisionId } }, signal: signalOf(opts) }));
  }

  /** Every approval request (newest first) across pages. */
  approvals(query: ApprovalsQuery = {}, opts?: CallOptions): AsyncGenerator<Approval, void, undefined> {
    return paginate((cursor) =>
      this.unwrap(this.api.GET('/v1/approvals', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } }, signal: signalOf(opts) })),
    );
  }

  /**
   * Approves a pending request. `remember` stores the call as a positive example (legacy path);
   * `intent_label` approves it as another active intention of the org.
   */
  approve(id: string, decision: ApproveApproval = {}, opts?: CallOptions): Promise<Approval> {
    return this.unwrap(this.api.POST('/v1/approvals/{id}/approve', { params: { path: { id } }, body: decision, signal: signalOf(opts) }));
  }

  /** Denies a pending request: a reason, or `{reason?, remember?}` (remember: a negative example of the candidate). */
  deny(id: string, decision?: string | DenyApproval, opts?: CallOptions): Promise<Approval> {
    const body: DenyApproval = typeof decision === 'string' ? { reason: decision } : (decision ?? {});
    return this.unwrap(this.api.POST('/v1/approvals/{id}/deny', { params: { path: { id } }, body, signal: signalOf(opts) }));
  }
}

export const createGatewayClient = (options: GatewayClientOptions) => new GatewayClient(options);
