import { plainToInstance } from 'class-transformer';
import { McpProxyCallDto } from '@igw/contracts';
import type { MandateClaims, ToolCallDecision } from '../../domain';
import { mcpProxyCallStatus, toMcpProxyCallResponse, toToolCallCommand } from './mcp-proxy-call.wire';

const MANDATE = {
  sub: 'agent-1',
  org: 'org_1',
  intent_id: 'crm',
  prompt_id: 'prm_1',
  aud: 'crm-api',
  scope: {},
  jti: 'mnd_1',
  exp: 0,
} as unknown as MandateClaims;

describe('POST /v1/mcp-proxy/call at its edge', () => {
  describe('toToolCallCommand', () => {
    it('copies the validated body into a plain command, action members in the wire order', () => {
      const body = plainToInstance(McpProxyCallDto, {
        audience: 'crm-api',
        context: { actor: 'agent-1' },
        action: { target_resource: 'crm://contacts/42', arguments: { id: 42 }, operation: 'crm.contacts.read', surface: 'sdk' },
      });
      const command = toToolCallCommand(body);
      expect(command).toEqual({
        action: { surface: 'sdk', operation: 'crm.contacts.read', arguments: { id: 42 }, target_resource: 'crm://contacts/42' },
        context: { actor: 'agent-1' },
        audience: 'crm-api',
      });
      expect(Object.getPrototypeOf(command.action)).toBe(Object.prototype);
      expect(Object.keys(command.action)).toEqual(['surface', 'operation', 'arguments', 'target_resource']);
      // The values themselves are not copied: no second rendering of the arguments.
      expect(command.action.arguments).toBe(body.action.arguments);
    });

    it('leaves out what the body leaves out', () => {
      const command = toToolCallCommand({ action: { surface: 'sdk', operation: 'crm.contacts.read' }, audience: 'crm-api' } as McpProxyCallDto);
      expect(command.action).toEqual({ surface: 'sdk', operation: 'crm.contacts.read' });
      expect(Object.keys(command.action)).toEqual(['surface', 'operation']);
      expect(command.context).toBeUndefined();
    });
  });

  describe('toMcpProxyCallResponse and mcpProxyCallStatus', () => {
    const decided = (decision: ToolCallDecision['decision'], mandate: MandateClaims = MANDATE): ToolCallDecision => ({ decision, mandate });

    it('answers the decision as recorded and names the mandate', () => {
      const decision = { kind: 'allow' as const, decision_id: 'dec_1', rule_id: 'r', approval_request_id: 'apr_1' };
      const body = toMcpProxyCallResponse(decided(decision));
      expect(body).toEqual({ decision, mandate: { cred_id: 'mnd_1', prompt_id: 'prm_1', intent_id: 'crm' } });
      expect(body.decision).toBe(decision);
    });

    it('a mandate bound to no prompt answers prompt_id null', () => {
      const { prompt_id: _prompt, ...unbound } = MANDATE;
      expect(toMcpProxyCallResponse(decided({ kind: 'allow', decision_id: 'dec_1' }, unbound as MandateClaims)).mandate.prompt_id).toBeNull();
    });

    it.each([
      ['allow', 200],
      ['allow_with_log_extra', 200],
      ['allow_with_redact', 200],
      ['allow_with_downgrade', 200],
      ['allow_with_shadow', 200],
      ['defer', 202],
      ['negotiate', 202],
      ['substitute', 202],
      ['approval', 428],
      ['step_up', 428],
      ['deny', 403],
      ['deny_with_reroute', 403],
    ] as const)('%s answers %i', (kind, status) => {
      expect(mcpProxyCallStatus(decided({ kind, decision_id: 'dec_1' }))).toBe(status);
    });
  });
});
