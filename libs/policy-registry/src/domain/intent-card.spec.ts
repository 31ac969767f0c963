import { installCard, type CardContent } from './intent-card';

const content: CardContent = {
  id: 'crm',
  name: 'CRM',
  description: '',
  allowedScope: { operations: ['crm.*'], resources: ['*'], forbidden_operations: [] },
  audiences: ['crm-api'],
  maxTtlSeconds: 3600,
  shadow: false,
  rules: [],
};

describe('installing an intent card', () => {
  const t0 = new Date('2026-01-01T00:00:00.000Z');
  const t1 = new Date('2026-01-02T00:00:00.000Z');

  it('starts a new id at version 1', () => {
    expect(installCard('org_1', null, content, t0)).toEqual({ ...content, orgId: 'org_1', version: 1, createdAt: t0, updatedAt: t0 });
  });

  it('replaces an existing id: new content, version + 1, creation time kept', () => {
    const first = installCard('org_1', null, content, t0);
    const second = installCard('org_1', first, { ...content, name: 'CRM v2' }, t1);
    expect(second).toEqual({ ...content, name: 'CRM v2', orgId: 'org_1', version: 2, createdAt: t0, updatedAt: t1 });
  });

  it('goes on from the removal when an id comes back: a new card, but never a version it had', () => {
    expect(installCard('org_1', null, content, t1, 4)).toEqual({ ...content, orgId: 'org_1', version: 5, createdAt: t1, updatedAt: t1 });
  });
});
