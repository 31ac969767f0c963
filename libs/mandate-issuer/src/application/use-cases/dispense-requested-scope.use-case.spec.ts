import { decodeJwt } from 'jose';
import type { DispenseMandateDto } from '@igw/contracts';
import type { Caller } from '@igw/kernel';
import { dispenseDto, mandateWorld } from '../testing/mandate-world.fake';
import { realMandateSigning } from '../testing/real-mandate-signing.fixture';
import { InspectMandateUseCase } from './inspect-mandate.use-case';

/** DESIGN 6.8: in `requested_scope` only `operations` is required; `resources` and `forbidden_operations` default to `[]`. */
const ORG = 'org_acme';
const caller: Caller = { orgId: ORG, keyId: 'key_writer', scope: 'policy_write' };
const T0 = new Date('2026-03-01T10:00:00.000Z');
const { signing, signingKey } = realMandateSigning();

const world = () => mandateWorld({ now: T0, signing, signingKey: signingKey(), kinds: [], orgs: [ORG] });
const operationsOnly = (extra: Partial<DispenseMandateDto> = {}) => dispenseDto({ requested_scope: { operations: ['crm.contacts.read'] }, ...extra });

describe('DispenseMandateUseCase: a requested_scope with only operations', () => {
  it('is 404 intent_not_found for an unknown card', async () => {
    const s = await world();
    await expect(s.dispense.execute(caller, operationsOnly({ intent_id: 'no-such-card' }))).rejects.toMatchObject({
      kind: 'not_found',
      code: 'intent_not_found',
    });
    expect(s.mandates.rows.size).toBe(0);
  });

  it('dispenses for a known card a mandate with no resources and the card forbidden operations, which refreshes', async () => {
    const s = await world();
    const out = await s.dispense.execute(caller, operationsOnly());
    const scope = { operations: ['crm.contacts.read'], resources: [], forbidden_operations: expect.any(Array) };
    expect(decodeJwt(out.credential)['scope']).toEqual(scope);
    expect(await new InspectMandateUseCase(s.mandates, s.clock).execute(caller, out.cred_id)).toMatchObject({ scope, status: 'active' });
    s.clock.advance(60_000);
    expect(decodeJwt((await s.refresh.execute(caller, { cred_id: out.cred_id })).credential)['scope']).toEqual(scope);
  });

  it('keeps forbidden_operations it names besides the card ones, and still refuses an empty operations list', async () => {
    const s = await world();
    const out = await s.dispense.execute(
      caller,
      dispenseDto({
        requested_scope: { operations: ['crm.contacts.read'], forbidden_operations: ['crm.contacts.read_secret'] },
      }),
    );
    expect((decodeJwt(out.credential)['scope'] as { forbidden_operations: string[] }).forbidden_operations).toContain('crm.contacts.read_secret');
    await expect(s.dispense.execute(caller, dispenseDto({ requested_scope: { operations: [] } }))).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'requested_scope.operations must name at least one pattern',
    });
  });
});
