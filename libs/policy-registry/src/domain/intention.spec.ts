import { AppError } from '@igw/kernel';
import { archiveIntention, createIntention, publishIntention, type Intention } from './intention';

const t0 = new Date('2026-01-01T00:00:00.000Z');
const t1 = new Date('2026-01-01T00:01:00.000Z');

describe('intentions', () => {
  const draft = (): Intention => createIntention('int_1', 'org_1', { label: 'crm.lookup', intentClass: 'lookup' }, t0);

  it('start as drafts at version 1 with the documented defaults', () => {
    expect(draft()).toEqual({
      id: 'int_1',
      orgId: 'org_1',
      label: 'crm.lookup',
      displayName: 'crm.lookup',
      description: '',
      intentClass: 'lookup',
      status: 'draft',
      approvalRequired: false,
      ttlMinutes: 15,
      dataElements: [],
      version: 1,
      createdAt: t0,
      updatedAt: t0,
    });
  });

  it('refuse a bad label or TTL with the field named', () => {
    const err = (() => {
      try {
        createIntention('int_1', 'org_1', { label: 'Bad Label', intentClass: 'lookup', ttlMinutes: 0 }, t0);
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect(err!.code).toBe('invalid_request');
    expect((err!.extra['details'] as { path: string }[]).map((d) => d.path)).toEqual(['label', 'ttl_minutes']);
  });

  it('publish: draft → active with a new version; active again changes nothing', () => {
    const active = publishIntention(draft(), t1)!;
    expect(active).toMatchObject({ status: 'active', version: 2, createdAt: t0, updatedAt: t1 });
    expect(publishIntention(active, t1)).toBeNull();
  });

  it('publish of an archived intention is an invalid transition', () => {
    const archived = archiveIntention(draft(), t1)!;
    expect(() => publishIntention(archived, t1)).toThrow(expect.objectContaining({ kind: 'conflict', code: 'invalid_transition' }));
  });

  it('archive: draft or active → archived; archived again changes nothing', () => {
    expect(archiveIntention(draft(), t1)).toMatchObject({ status: 'archived', version: 2 });
    const archived = archiveIntention(publishIntention(draft(), t1)!, t1)!;
    expect(archived).toMatchObject({ status: 'archived', version: 3 });
    expect(archiveIntention(archived, t1)).toBeNull();
  });
});
