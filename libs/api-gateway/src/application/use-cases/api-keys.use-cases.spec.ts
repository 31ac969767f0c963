import { FixedClock, AppError, type Caller } from '@igw/kernel';
import { Topics } from '@igw/contracts';
import { CountingEpoch, InMemoryGatewayStore } from '../testing/in-memory-gateway.fakes';
import type { GatewaySettings } from '../ports/gateway-settings';
import { AuthenticateApiKeyUseCase } from './authenticate-api-key.use-case';
import { BootstrapOrgUseCase } from './bootstrap-org.use-case';
import { CreateApiKeyUseCase } from './create-api-key.use-case';
import { CreateOrgUseCase } from './create-org.use-case';
import { RevokeApiKeyUseCase } from './revoke-api-key.use-case';

const settings: GatewaySettings = { mode: 'embedded', version: 'test', defaultRateLimit: { requestsPerSecond: 100, burst: 200 } };

function setup(overrides: Partial<GatewaySettings> = {}) {
  const store = new InMemoryGatewayStore();
  const epoch = new CountingEpoch();
  const clock = new FixedClock(new Date('2026-11-22T10:00:00Z'));
  const s = { ...settings, ...overrides };
  const createOrg = new CreateOrgUseCase(store, clock, s);
  return {
    store,
    epoch,
    clock,
    createOrg,
    createKey: new CreateApiKeyUseCase(store, clock),
    revoke: new RevokeApiKeyUseCase(store, epoch, clock),
    auth: new AuthenticateApiKeyUseCase(store, epoch, s, clock),
    bootstrap: new BootstrapOrgUseCase(store, store, s, clock, createOrg),
  };
}

const callerOf = (orgId: string, keyId: string): Caller => ({ orgId, keyId, scope: 'admin' });

describe('API key use cases', () => {
  it('stores only a hash and the display prefix, and authenticates the shown key', async () => {
    const t = setup();
    const { org, api_key } = await t.createOrg.execute({ name: 'acme' });
    const stored = t.store.keys.get(api_key.id)!;
    expect(JSON.stringify(stored)).not.toContain(api_key.key);
    expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);
    const a = await t.auth.execute(api_key.key);
    expect(a.caller).toEqual({ orgId: org.id, keyId: api_key.id, scope: 'admin' });
    expect(a.rateLimit).toEqual({ requestsPerSecond: 100, burst: 200 });
    expect(t.store.events.map((e) => e.type)).toEqual([Topics.OrgCreated.name, Topics.ApiKeyCreated.name]);
  });

  it('caches lookups while the epoch holds, and a revocation is refused on the next call', async () => {
    const t = setup();
    const { org, api_key } = await t.createOrg.execute({ name: 'acme' });
    await t.auth.execute(api_key.key);
    await t.auth.execute(api_key.key);
    expect(t.store.lookups).toBe(1);
    await t.revoke.execute(callerOf(org.id, api_key.id), api_key.id);
    expect(t.epoch.value).toBe(1);
    await expect(t.auth.execute(api_key.key)).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('asks the database every time the epoch cannot be read', async () => {
    const t = setup();
    const { api_key } = await t.createOrg.execute({ name: 'acme' });
    t.epoch.broken = true;
    await t.auth.execute(api_key.key);
    await t.auth.execute(api_key.key);
    expect(t.store.lookups).toBe(2);
  });

  it('rejects malformed and unknown keys without trusting them', async () => {
    const t = setup();
    await expect(t.auth.execute('short')).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(t.auth.execute(`igw_${'a'.repeat(38)}`)).rejects.toBeInstanceOf(AppError);
  });

  it("revoking another org's key is a 404 and revocation is idempotent", async () => {
    const t = setup();
    const a = await t.createOrg.execute({ name: 'a' });
    const b = await t.createOrg.execute({ name: 'b' });
    await expect(t.revoke.execute(callerOf(b.org.id, b.api_key.id), a.api_key.id)).rejects.toMatchObject({ code: 'not_found' });
    const first = await t.revoke.execute(callerOf(a.org.id, a.api_key.id), a.api_key.id);
    const second = await t.revoke.execute(callerOf(a.org.id, a.api_key.id), a.api_key.id);
    expect(second.revoked_at).toBe(first.revoked_at);
    expect(t.store.events.filter((e) => e.type === Topics.ApiKeyRevoked.name)).toHaveLength(1);
  });

  it('new keys carry the requested scope and the org of the caller', async () => {
    const t = setup();
    const { org, api_key } = await t.createOrg.execute({ name: 'acme' });
    const k = await t.createKey.execute(callerOf(org.id, api_key.id), { name: 'ro', scope: 'read_only' });
    expect((await t.auth.execute(k.key)).caller).toEqual({ orgId: org.id, keyId: k.id, scope: 'read_only' });
  });
});

describe('bootstrap', () => {
  it('embedded first run: creates org default with a generated admin key, once', async () => {
    const t = setup();
    const first = await t.bootstrap.execute();
    expect(first.generatedKey).toMatch(/^igw_/);
    expect((await t.auth.execute(first.generatedKey!)).caller.scope).toBe('admin');
    const second = await t.bootstrap.execute();
    expect(second.generatedKey).toBeUndefined();
    expect(t.store.orgs.size).toBe(1);
  });

  it('honours BOOTSTRAP_ADMIN_KEY, also when added after the first run', async () => {
    const given = 'x'.repeat(40);
    const t = setup({ bootstrapAdminKey: given });
    expect((await t.bootstrap.execute()).generatedKey).toBeUndefined();
    expect((await t.auth.execute(given)).caller.scope).toBe('admin');

    const later = setup();
    await later.bootstrap.execute();
    const withKey = new BootstrapOrgUseCase(later.store, later.store, { ...settings, bootstrapAdminKey: given }, later.clock, later.createOrg);
    await withKey.execute();
    expect((await later.auth.execute(given)).caller.scope).toBe('admin');
  });

  it('distributed mode without a bootstrap key creates nothing', async () => {
    const t = setup({ mode: 'distributed' });
    expect(await t.bootstrap.execute()).toEqual({});
    expect(t.store.orgs.size).toBe(0);
  });
});
