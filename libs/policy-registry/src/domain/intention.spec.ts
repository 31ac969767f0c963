import { AppError } from '@igw/kernel';
import { archiveIntention, createIntention, publishIntention, updateIntention, type Intention } from './intention';

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
      tools: [],
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

describe('intention tools and updates', () => {
  const draft = (tools?: string[]): Intention => createIntention('int_1', 'org_1', { label: 'crm.lookup', intentClass: 'lookup', tools }, t0);
  const problem = (run: () => unknown) => {
    try {
      run();
    } catch (e) {
      return e as AppError;
    }
    throw new Error('expected a refusal');
  };

  it('create keeps the tools without duplicates and names a bad pattern by its index', () => {
    expect(draft(['crm.get', 'crm.*', 'crm.get']).tools).toEqual(['crm.get', 'crm.*']);
    const err = problem(() => draft(['crm.get', 'bad tool']));
    expect(err).toMatchObject({ code: 'invalid_request', extra: { details: [{ path: 'tools[1]', message: expect.stringContaining('tools[1]') }] } });
  });

  it('update changes only the given fields, with a new version', () => {
    const next = updateIntention(draft(), { tools: ['crm.**', 'crm.**'], ttlMinutes: 30 }, t1)!;
    expect(next).toEqual({ ...draft(), tools: ['crm.**'], ttlMinutes: 30, version: 2, updatedAt: t1 });
    const active = publishIntention(draft(), t1)!;
    expect(updateIntention(active, { description: 'Looks contacts up.', approvalRequired: true }, t1)).toMatchObject({
      status: 'active',
      description: 'Looks contacts up.',
      approvalRequired: true,
      version: 3,
    });
  });

  it('update with the current values changes nothing (null); with nothing is a 400 naming the body', () => {
    expect(updateIntention(draft(['a.b']), { tools: ['a.b'], intentClass: 'lookup' }, t1)).toBeNull();
    expect(problem(() => updateIntention(draft(), {}, t1))).toMatchObject({ code: 'invalid_request', extra: { details: [{ path: 'body' }] } });
  });

  it('update refuses bad values naming each field, and any change of an archived intention', () => {
    const err = problem(() => updateIntention(draft(), { ttlMinutes: 0, tools: ['ok', ''] }, t1));
    expect((err.extra['details'] as { path: string }[]).map((d) => d.path)).toEqual(['ttl_minutes', 'tools[1]']);
    const nulls = problem(() => updateIntention(draft(), { tools: null, description: null } as never, t1));
    expect((nulls.extra['details'] as { path: string }[]).map((d) => d.path)).toEqual(['description', 'tools']);
    const archived = archiveIntention(draft(), t1)!;
    expect(() => updateIntention(archived, { description: 'x' }, t1)).toThrow(expect.objectContaining({ kind: 'conflict', code: 'invalid_transition' }));
  });
});
