import { randomBytes } from 'node:crypto';
import { FixedClock, type Caller } from '@igw/kernel';
import { migrate, openPostgresDatabase, type ServiceDatabase } from '@igw/persistence';
import { Topics, type EventEnvelope, type InstallIntentCardDto, type IntentCardEventV1 } from '@igw/contracts';
import { DeleteIntentCardUseCase } from '../../application/use-cases/delete-intent-card.use-case';
import { InstallIntentCardUseCase } from '../../application/use-cases/install-intent-card.use-case';
import { ListIntentCardsUseCase } from '../../application/use-cases/list-intent-cards.use-case';
import { POLICY_REGISTRY_MIGRATIONS } from '../../policy-registry.module';
import { PrismaIntentCardRepository } from './prisma-intent-card.repository';
import { createRegistryPrisma, type RegistryPrisma } from './registry-prisma.client';

const url = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const schema = `it_registry_${randomBytes(4).toString('hex')}`;

const card = (over: Partial<InstallIntentCardDto> = {}): InstallIntentCardDto =>
  ({
    name: 'CRM assistant',
    allowed_scope: { operations: ['crm.read', 'crm.search*'], resources: ['crm://customers/*'], forbidden_operations: ['crm.delete*'] },
    audiences: ['crm-api'],
    rules: [
      { id: 'bulk', when: 'action.operation == "crm.export" && size(action.arguments) > 2', decision: { kind: 'approval' } },
      { id: 'redact', when: 'context.user in ["a","b"]', decision: { kind: 'allow_with_redact', redact_fields: ['email', 'phone'] } },
    ],
    ...over,
  }) as InstallIntentCardDto;

describe('PrismaIntentCardRepository (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let prisma: RegistryPrisma;
  let repo: PrismaIntentCardRepository;
  const clock = new FixedClock(new Date('2026-03-01T10:00:00.000Z'));
  let install: InstallIntentCardUseCase;
  let remove: DeleteIntentCardUseCase;
  let list: ListIntentCardsUseCase;
  const caller = (orgId: string): Caller => ({ orgId, keyId: 'key_1', scope: 'policy_write' });
  const outbox = async (orgId: string) =>
    (await db.query<{ topic: string; key: string; envelope: EventEnvelope<IntentCardEventV1> }>(`SELECT topic, key, envelope FROM "${schema}"."outbox_events" ORDER BY seq`)).filter(
      (r) => r.key === orgId,
    );

  beforeAll(async () => {
    db = openPostgresDatabase(url, schema, 5);
    await migrate(db, POLICY_REGISTRY_MIGRATIONS);
    prisma = await createRegistryPrisma(db);
    repo = new PrismaIntentCardRepository(prisma, schema, { nudge: () => undefined });
    install = new InstallIntentCardUseCase(repo, clock);
    remove = new DeleteIntentCardUseCase(repo, clock);
    list = new ListIntentCardsUseCase(repo);
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db?.close();
  });

  it('installs, then replaces the same id: version + 1, created_at kept, one event each with the org version', async () => {
    const org = 'org_replace';
    const first = await install.execute(caller(org), card({ id: 'crm' }));
    expect(first).toMatchObject({ created: true, card: { id: 'crm', version: 1, max_ttl_seconds: 3600, shadow: false } });
    clock.advance(60_000);
    const second = await install.execute(caller(org), card({ id: 'crm', name: 'CRM v2', rules: [] }));
    expect(second.created).toBe(false);
    expect(second.card).toMatchObject({ name: 'CRM v2', version: 2, rules: [], created_at: first.card.created_at });
    expect(second.card.updated_at).not.toBe(first.card.updated_at);
    expect(await repo.findById(org, 'crm')).toMatchObject({ name: 'CRM v2', version: 2 });

    const events = await outbox(org);
    expect(events.map((e) => [e.topic, e.envelope.data.version, e.envelope.data.org_version])).toEqual([
      [Topics.IntentCardInstalled.name, 1, 1],
      [Topics.IntentCardInstalled.name, 2, 2],
    ]);
    expect(events[0]!.envelope.data.rules).toEqual(card().rules);
  });

  it('keeps card ids per org: the same id in two orgs are two cards', async () => {
    await install.execute(caller('org_x'), card({ id: 'shared', name: 'X' }));
    await install.execute(caller('org_y'), card({ id: 'shared', name: 'Y' }));
    expect((await repo.findById('org_x', 'shared'))!.name).toBe('X');
    expect((await repo.findById('org_y', 'shared'))!.name).toBe('Y');
    expect(await repo.findById('org_z', 'shared')).toBeNull();
  });

  it('deletes with an intent_card.deleted event; a missing or foreign card is 404 and writes nothing', async () => {
    const org = 'org_delete';
    await install.execute(caller(org), card({ id: 'gone' }));
    await expect(remove.execute(caller('org_other'), 'gone')).rejects.toMatchObject({ kind: 'not_found' });
    await remove.execute(caller(org), 'gone');
    expect(await repo.findById(org, 'gone')).toBeNull();
    await expect(remove.execute(caller(org), 'gone')).rejects.toMatchObject({ kind: 'not_found' });
    const events = await outbox(org);
    expect(events.map((e) => e.topic)).toEqual([Topics.IntentCardInstalled.name, Topics.IntentCardDeleted.name]);
    expect(events[1]!.envelope.data).toMatchObject({ id: 'gone', deleted: true, version: 2, org_version: 2 });
    expect(await outbox('org_other')).toEqual([]);
  });

  it('lets concurrent installs of one new id all succeed, one after the other', async () => {
    const org = 'org_race';
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => install.execute(caller(org), card({ id: 'hot', name: `v${i}` }))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results.map((r) => r.card.version).sort()).toEqual([1, 2, 3, 4]);
    expect((await outbox(org)).map((e) => e.envelope.data.org_version)).toEqual([1, 2, 3, 4]);
  });

  it('pages newest first with a cursor', async () => {
    const org = 'org_pages';
    for (const id of ['a', 'b', 'c', 'd', 'e']) {
      await install.execute(caller(org), card({ id }));
      clock.advance(1000);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list.execute(caller(org), { limit: '2', cursor });
      seen.push(...page.data.map((c) => c.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['e', 'd', 'c', 'b', 'a']);
  });
});
