import { canonicalJson } from '@igw/kernel';
import { canonicalApprovalAction, type ApprovalActionIdentity } from './approval-fingerprint';

const ACTION: ApprovalActionIdentity = {
  credId: 'mnd_1',
  operation: 'crm.contacts.export',
  targetResource: 'crm://contacts/all',
  argumentsJson: canonicalJson({ format: 'csv', fields: ['name', 'email'] }),
};

describe('canonicalApprovalAction', () => {
  it('renders the rendering approvals were opened with (v1): args, cred, op, target, v in key order', () => {
    expect(canonicalApprovalAction(ACTION)).toBe(
      '{"args":{"fields":["name","email"],"format":"csv"},"cred":"mnd_1","op":"crm.contacts.export","target":"crm://contacts/all","v":1}',
    );
  });

  it('is canonical JSON itself', () => {
    const text = canonicalApprovalAction(ACTION);
    expect(canonicalJson(JSON.parse(text))).toBe(text);
  });

  it('an absent target and a null one are the same (none)', () => {
    const { targetResource: _target, ...untargeted } = ACTION;
    expect(canonicalApprovalAction(untargeted)).toBe(canonicalApprovalAction({ ...ACTION, targetResource: null }));
    expect(canonicalApprovalAction(untargeted)).toContain('"target":null');
  });

  it('tells apart another mandate, operation, target or arguments; escapes what it quotes', () => {
    const variants = [
      { ...ACTION, credId: 'mnd_2' },
      { ...ACTION, operation: 'crm.contacts.read' },
      { ...ACTION, targetResource: 'crm://contacts/other' },
      { ...ACTION, argumentsJson: canonicalJson({ format: 'json' }) },
      { ...ACTION, credId: 'mnd_1","op":"x' },
    ].map(canonicalApprovalAction);
    expect(new Set([canonicalApprovalAction(ACTION), ...variants]).size).toBe(6);
    expect(JSON.parse(variants[4] as string)).toMatchObject({ cred: 'mnd_1","op":"x', op: 'crm.contacts.export' });
  });
});
