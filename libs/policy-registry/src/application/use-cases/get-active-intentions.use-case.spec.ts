import type { Caller } from '@igw/kernel';
import type { CreateIntentionDto } from '@igw/contracts';
import { intentionWorld } from '../testing/registry-world.fake';

const acme: Caller = { orgId: 'org_acme', keyId: 'key_1', scope: 'policy_write' };
const body = (label: string): CreateIntentionDto => ({ label, intent_class: 'lookup' }) as CreateIntentionDto;

describe('GetActiveIntentionsUseCase', () => {
  const setup = intentionWorld;

  it('answers version 0 and nothing for an org without intentions', async () => {
    expect(await setup().active.execute('org_none')).toEqual({ version: 0, intentions: [], examples: [] });
  });

  it('answers exactly the active intentions, in event form, stamped with the counter they correspond to', async () => {
    const s = setup();
    const a = await s.create.execute(acme, body('a'));
    s.clock.advance(1000);
    const b = await s.create.execute(acme, body('b'));
    await s.create.execute(acme, body('draft'));
    await s.create.execute({ ...acme, orgId: 'org_other' }, body('elsewhere'));
    const pa = await s.publish.execute(acme, a.id);
    const pb = await s.publish.execute(acme, b.id);
    // 3 creates + 2 publishes in org_acme.
    expect(await s.active.execute('org_acme')).toEqual({
      version: 5,
      intentions: [
        { ...pb, org_version: 5 },
        { ...pa, org_version: 5 },
      ],
      examples: [],
    });
    await s.archive.execute(acme, a.id);
    expect(await s.active.execute('org_acme')).toEqual({ version: 6, intentions: [{ ...pb, org_version: 6 }], examples: [] });
    expect(await s.active.execute('org_other')).toEqual({ version: 1, intentions: [], examples: [] });
  });
});
