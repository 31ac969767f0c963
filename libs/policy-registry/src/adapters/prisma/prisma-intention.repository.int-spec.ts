import { FixedClock } from '@igw/kernel';
import { walkCursorPages } from '@igw/testing/unit';
import { prismaSpecWorld, testSchemaName, readOutbox } from '@igw/persistence/testing';
import { Topics, type IntentionEventV1 } from '@igw/contracts';
import { intentionUseCases, policyWriter, SPEC_T0 } from '../../application/testing/registry-world.fake';
import { createIntention } from '../../domain/intention';
import { POLICY_REGISTRY_MIGRATIONS } from '../../policy-registry.module';
import { PrismaIntentionRepository } from './prisma-intention.repository';
import { createRegistryPrisma } from './registry-prisma.client';

const schema = testSchemaName('registry');

describe('PrismaIntentionRepository (PostgreSQL)', () => {
  const w = prismaSpecWorld(schema, POLICY_REGISTRY_MIGRATIONS, 5, createRegistryPrisma, (prisma, notifier) =>
    intentionUseCases(new PrismaIntentionRepository(prisma, schema, notifier), new FixedClock(SPEC_T0)),
  );

  const outbox = (orgId: string) => readOutbox<IntentionEventV1>(w.db, orgId);

  it('create then publish: state, version, org version and outbox rows change together', async () => {
    const org = 'org_flow';
    const before = w.notifier.nudges;
    const created = await w.create.execute(policyWriter(org), {
      label: 'crm.lookup',
      intent_class: 'lookup',
      data_elements: [{ data_source_id: 'crm', path: 'customers.email' }],
    } as never);
    w.clock.advance(1000);
    const published = await w.publish.execute(policyWriter(org), created.id);
    expect(published).toMatchObject({ status: 'active', version: 2, data_elements: [{ data_source_id: 'crm', path: 'customers.email' }] });
    expect(await w.publish.execute(policyWriter(org), created.id)).toEqual(published);

    const rows = await outbox(org);
    expect(rows.map((r) => [r.topic, r.envelope.data.status, r.envelope.data.version, r.envelope.data.org_version])).toEqual([
      [Topics.IntentionCreated.name, 'draft', 1, 1],
      [Topics.IntentionPublished.name, 'active', 2, 2],
    ]);
    expect(rows[1]!.envelope).toMatchObject({ type: Topics.IntentionPublished.name, org_id: org, schema_version: 1, data: { id: created.id } });
    const [counter] = await w.db.query<{ intentions_version: number; cards_version: number }>(`SELECT * FROM "${schema}"."org_versions" WHERE org_id = $1`, [
      org,
    ]);
    expect(counter).toMatchObject({ intentions_version: 2, cards_version: 0 });
    expect(w.notifier.nudges - before).toBe(2);
  });

  it('writes nothing when the transaction fails: no row without its event, no event without its row', async () => {
    const org = 'org_atomic';
    const intention = createIntention('int_atomic', org, { label: 'x', intentClass: 'other' }, w.clock.now());
    await expect(
      w.repo.create(intention, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await w.repo.findById(org, 'int_atomic')).toBeNull();
    expect(await outbox(org)).toEqual([]);
  });

  it('refuses a second label in the same org with 409 label_conflict and writes no event for it', async () => {
    const org = 'org_labels';
    await w.create.execute(policyWriter(org), { label: 'dup', intent_class: 'lookup' } as never);
    await expect(w.create.execute(policyWriter(org), { label: 'dup', intent_class: 'export' } as never)).rejects.toMatchObject({
      kind: 'conflict',
      code: 'label_conflict',
    });
    await expect(w.create.execute(policyWriter('org_labels_2'), { label: 'dup', intent_class: 'lookup' } as never)).resolves.toMatchObject({ label: 'dup' });
    expect((await outbox(org)).length).toBe(1);
  });

  it("never reads or changes another org's intention", async () => {
    const mine = await w.create.execute(policyWriter('org_a'), { label: 'scoped', intent_class: 'lookup' } as never);
    expect(await w.repo.findById('org_b', mine.id)).toBeNull();
    expect(
      await w.repo.update(
        'org_b',
        mine.id,
        () => null,
        () => [],
      ),
    ).toBeNull();
    await expect(w.publish.execute(policyWriter('org_b'), mine.id)).rejects.toMatchObject({ kind: 'not_found' });
    expect((await w.repo.findById('org_a', mine.id))!.status).toBe('draft');
  });

  it('serialises concurrent transitions: five publishes, one change, one event', async () => {
    const org = 'org_race';
    const created = await w.create.execute(policyWriter(org), { label: 'race', intent_class: 'lookup' } as never);
    const results = await Promise.all(Array.from({ length: 5 }, () => w.publish.execute(policyWriter(org), created.id)));
    expect(new Set(results.map((r) => r.version))).toEqual(new Set([2]));
    expect((await outbox(org)).map((r) => r.topic)).toEqual([Topics.IntentionCreated.name, Topics.IntentionPublished.name]);
    await w.archive.execute(policyWriter(org), created.id);
    await expect(w.publish.execute(policyWriter(org), created.id)).rejects.toMatchObject({ code: 'invalid_transition' });
  });

  it('pages newest first with a stable cursor, also when rows arrive between pages', async () => {
    const org = 'org_pages';
    const labels: string[] = [];
    // Three share one timestamp: the id breaks the tie.
    for (let i = 0; i < 6; i++) {
      labels.push(`p${i}`);
      await w.create.execute(policyWriter(org), { label: `p${i}`, intent_class: 'lookup' } as never);
      if (i % 3 === 2) w.clock.advance(1000);
    }
    const { items } = await walkCursorPages(
      (cursor) => w.list.execute(policyWriter(org), { limit: '2', cursor }),
      async () => {
        w.clock.advance(1000);
        await w.create.execute(policyWriter(org), { label: 'late', intent_class: 'lookup' } as never);
      },
    );
    expect(items.map((i) => i.label)).toEqual([...labels].reverse());
    expect((await w.list.execute(policyWriter(org), { limit: '1' })).data[0]!.label).toBe('late');
    expect((await w.list.execute(policyWriter(org), { status: 'active' })).data).toEqual([]);
  });
});
