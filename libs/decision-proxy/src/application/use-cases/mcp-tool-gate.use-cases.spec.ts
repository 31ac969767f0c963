import type { EvaluateIntentRequestDto, EvaluateIntentResponseDto, IntentEvaluatorApi } from '@igw/contracts';
import { AppError, type Caller } from '@igw/kernel';
import { compileCard, type AnsweredDecision, type CompiledCard, type ToolCallCommand } from '../../domain';
import type { McpUpstreams, OpenedMcpUpstream } from '../ports/mcp-upstreams.port';
import type { VerifiedMandateClaims } from '../verification/mandate-verifier.port';
import type { ToolCallDecisionGate, VerifiedMandate } from '../decision-gate/tool-call-decision-gate';
import { EnforceMcpToolCallUseCase } from './enforce-mcp-tool-call.use-case';
import { ListMcpToolsUseCase } from './list-mcp-tools.use-case';
import { OpenMcpUpstreamUseCase } from './open-mcp-upstream.use-case';

const CALLER: Caller = { orgId: 'org_1', keyId: 'key_1', scope: 'read_only' };
const SERVER = { name: 'files', shadow: false };

const card: CompiledCard = compileCard({
  id: 'files-agent',
  version: 1,
  shadow: false,
  allowed_scope: { operations: ['files.*'], resources: ['mcp://files/**'], forbidden_operations: ['files.purge'] },
  rules: [],
});
const claims = {
  sub: 'agent-1',
  org: 'org_1',
  intent_id: 'files-agent',
  jti: 'cred_1',
  scope: { operations: ['files.read', 'files.delete', 'files.purge'], resources: ['mcp://files/**'], forbidden_operations: [] },
} as unknown as VerifiedMandateClaims;
const VERIFIED: VerifiedMandate = { claims, card };

/** The decision gate as the MCP use cases see it: what they asked, and a decision to answer with. */
function fakeGate(decision: AnsweredDecision = { kind: 'allow', decision_id: 'dec_1' }) {
  const asked: { token?: string | undefined; mandate?: VerifiedMandate; command?: ToolCallCommand; audience?: string }[] = [];
  const gate: Pick<ToolCallDecisionGate, 'decide' | 'verifyMandate'> = {
    decide: async (_caller: Caller, mandate: VerifiedMandate, command: ToolCallCommand) => {
      asked.push({ mandate, command });
      return { decision, mandate: mandate.claims };
    },
    verifyMandate: async (_caller: Caller, token: string | undefined, audience: string) => {
      asked.push({ token, audience });
      if (token === 'revoked') throw new AppError('unauthenticated', 'mandate_invalid', 'mandate is not valid');
      return { claims, card };
    },
  };
  return { gate: gate as ToolCallDecisionGate, asked };
}

function fakeEvaluator(outcome: EvaluateIntentResponseDto['outcome'], extra: Partial<EvaluateIntentResponseDto> = {}) {
  const asked: EvaluateIntentRequestDto[] = [];
  const evaluator: IntentEvaluatorApi = {
    evaluate: async (_caller, request) => {
      asked.push(request);
      return {
        outcome,
        intent_label: 'files.read_document',
        intent_event_id: 'iev_1',
        approval_request_id: null,
        grant: 'grant.jws',
        ...extra,
      } as EvaluateIntentResponseDto;
    },
  };
  return { evaluator, asked };
}

describe('EnforceMcpToolCallUseCase', () => {
  it('mandate path: the tool is the action, _meta the context, the server the audience', async () => {
    const { gate, asked } = fakeGate();
    const enforce = new EnforceMcpToolCallUseCase(gate, fakeEvaluator('allowed').evaluator);
    const out = await enforce.execute(CALLER, VERIFIED, SERVER, 'read', { path: '/a' }, { actor: 'agent-1', prompt_id: 'p1', progressToken: 7 });
    expect(asked[0]?.mandate).toBe(VERIFIED);
    expect(asked[0]?.command).toEqual({
      action: { surface: 'mcp', operation: 'files.read', arguments: { path: '/a' }, target_resource: 'mcp://files/read' },
      context: { actor: 'agent-1', prompt_id: 'p1' },
      audience: 'files',
    });
    // In the order a REST call's action has (a negotiate echoes it back).
    expect(Object.keys(asked[0]?.command?.action ?? {})).toEqual(['surface', 'operation', 'arguments', 'target_resource']);
    expect(out).toEqual({
      plan: { forward: true, tool: 'read', arguments: { path: '/a' }, maskResult: [] },
      decision: { kind: 'allow', decision_id: 'dec_1' },
    });
  });

  it('mandate path: a blocking decision is a refusal carrying the decision', async () => {
    const decision: AnsweredDecision = { kind: 'approval', decision_id: 'dec_2', approval_request_id: 'apr_1' };
    const enforce = new EnforceMcpToolCallUseCase(fakeGate(decision).gate, fakeEvaluator('allowed').evaluator);
    const out = await enforce.execute(CALLER, VERIFIED, SERVER, 'export', {}, {});
    expect(out.plan.forward).toBe(false);
    expect(out.decision).toBe(decision);
    expect(out.evaluation).toBeUndefined();
  });

  it('legacy path: evaluates S.T as the actor, in shadow mode on a shadow server, and never shows the grant', async () => {
    const { evaluator, asked } = fakeEvaluator('allowed');
    const { gate, asked: decided } = fakeGate();
    const enforce = new EnforceMcpToolCallUseCase(gate, evaluator);
    const out = await enforce.execute(CALLER, null, { name: 'files', shadow: true }, 'read', { path: '/a' }, { actor: 'agent-1' });
    expect(decided).toHaveLength(0);
    expect(asked).toEqual([{ tool_call: { name: 'files.read', arguments: { path: '/a' } }, user_id: 'agent-1', shadow_mode: true }]);
    expect(out.plan).toEqual({ forward: true, tool: 'read', arguments: { path: '/a' }, maskResult: [] });
    expect(out.evaluation).toMatchObject({ intent_event_id: 'iev_1', outcome: 'allowed' });
    expect(out.evaluation).not.toHaveProperty('grant');
    expect(out.decision).toBeUndefined();
  });

  it.each([
    ['allowed', true],
    ['approved', true],
    ['shadow_denied', true],
    ['denied', false],
    ['pending_approval', false],
  ] as const)('legacy path: %s forwarded = %s', async (outcome, forwarded) => {
    const enforce = new EnforceMcpToolCallUseCase(fakeGate().gate, fakeEvaluator(outcome, { approval_request_id: 'apr_9' }).evaluator);
    const out = await enforce.execute(CALLER, null, SERVER, 'read', {}, {});
    expect(out.plan.forward).toBe(forwarded);
    if (outcome === 'pending_approval' && !out.plan.forward) expect(out.plan.text).toMatch(/apr_9/);
  });
});

describe('ListMcpToolsUseCase', () => {
  const tools = ['read', 'delete', 'purge', 'export'].map((name) => ({ name }));

  it('with a mandate: only tools in both scopes and not forbidden', () => {
    const visible = new ListMcpToolsUseCase().execute(VERIFIED, 'files', tools);
    expect(visible.map((t) => t.name)).toEqual(['read', 'delete']);
  });

  it('without a mandate: every tool (each call is evaluated on its own)', () => {
    expect(new ListMcpToolsUseCase().execute(null, 'files', tools)).toEqual(tools);
  });
});

describe('OpenMcpUpstreamUseCase', () => {
  const opened: OpenedMcpUpstream = {
    server: { id: 'mcs_1', orgId: 'org_1', name: 'files', url: 'https://files.example/mcp', headerNames: [], shadow: false, createdAt: new Date() },
    headers: {},
  };
  const upstreams = (found: OpenedMcpUpstream | null): McpUpstreams & { asked: string[] } => {
    const asked: string[] = [];
    return { asked, resolve: async (orgId, name) => (asked.push(`${orgId}/${name}`), found) };
  };

  it('resolves the org’s server by name', async () => {
    const registry = upstreams(opened);
    await expect(new OpenMcpUpstreamUseCase(registry, fakeGate().gate).execute(CALLER, 'files', undefined)).resolves.toEqual({
      upstream: opened,
      mandate: null,
    });
    expect(registry.asked).toEqual(['org_1/files']);
  });

  it('verifies a mandate for the server (as audience) and hands it on, for the session and each request', async () => {
    const { gate, asked } = fakeGate();
    const open = new OpenMcpUpstreamUseCase(upstreams(opened), gate);
    await expect(open.execute(CALLER, 'files', 'tok')).resolves.toEqual({ upstream: opened, mandate: VERIFIED });
    await expect(open.checkMandate(CALLER, 'files', 'tok')).resolves.toEqual(VERIFIED);
    await expect(open.checkMandate(CALLER, 'files', undefined)).resolves.toBeNull();
    expect(asked).toEqual([
      { token: 'tok', audience: 'files' },
      { token: 'tok', audience: 'files' },
    ]);
  });

  it('an unknown server is 404', async () => {
    await expect(new OpenMcpUpstreamUseCase(upstreams(null), fakeGate().gate).execute(CALLER, 'nope', undefined)).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('a refused mandate stops the request before the registry is asked', async () => {
    const registry = upstreams(opened);
    await expect(new OpenMcpUpstreamUseCase(registry, fakeGate().gate).execute(CALLER, 'files', 'revoked')).rejects.toMatchObject({
      code: 'mandate_invalid',
    });
    expect(registry.asked).toEqual([]);
  });
});
