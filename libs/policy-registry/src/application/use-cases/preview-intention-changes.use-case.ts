import { Inject, Injectable } from '@nestjs/common';
import type { ActiveIntentionsDto, CreateIntentionDto, IntentionChangeDto, UpdateIntentionDto } from '@igw/contracts';
import { AppError, CLOCK, type Clock, type ErrorDetail } from '@igw/kernel';
import { archiveIntention, assertSomeChange, createIntention, labelConflict, updateIntention, type Intention } from '../../domain/intention';
import { INTENTION_REPOSITORY, type IntentionRepository } from '../ports/intention.repository.port';
import { intentionChangesOf, newIntentionOf } from './intention-inputs';
import { toIntentionEvent, toIntentionExampleEvent } from './views';

/** Ids of drafted creates: stable across calls, so a replay's next page re-decides the same way. */
const draftId = (index: number) => `int_draft_${index}`;

/**
 * What-if replay (DESIGN 6.16): the org's active intentions with draft changes applied in order,
 * through the same domain rules as the real create / update / archive, stored nowhere and
 * announced to no one. A created intention counts as active, and so does an updated draft (the
 * preview of publishing it, with its examples); an archived one is gone. Refusals are the real
 * writes' own, each detail's path prefixed with `changes[i].intention` (or `changes[i].id`).
 */
@Injectable()
export class PreviewIntentionChangesUseCase {
  constructor(
    @Inject(INTENTION_REPOSITORY) private readonly intentions: IntentionRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(orgId: string, changes: readonly IntentionChangeDto[]): Promise<ActiveIntentionsDto> {
    const now = this.clock.now();
    const snapshot = await this.intentions.activeSnapshot(orgId);
    const state = new Map<string, Intention>(snapshot.intentions.map((i) => [i.id, i]));
    for (const [index, change] of changes.entries()) {
      const at = `changes[${index}]`;
      if (change.action === 'create') {
        const created = within(`${at}.intention`, () => createIntention(draftId(index), orgId, newIntentionOf(change.intention as CreateIntentionDto), now));
        if ([...state.values()].some((i) => i.label === created.label)) throw labelConflict(created.label);
        state.set(created.id, { ...created, status: 'active' });
        continue;
      }
      const id = change.id ?? '';
      const current = state.get(id) ?? (await this.intentions.findById(orgId, id));
      if (!current)
        throw new AppError('not_found', 'not_found', `${at}.id: intention not found`, { details: [{ path: `${at}.id`, message: 'intention not found' }] });
      if (change.action === 'archive') {
        if (archiveIntention(current, now) !== null) state.delete(id);
        continue;
      }
      const patch = intentionChangesOf(change.intention as UpdateIntentionDto);
      const updated = within(`${at}.intention`, () => {
        assertSomeChange(patch);
        return updateIntention(current, patch, now);
      });
      state.set(id, { ...(updated ?? current), status: 'active' });
    }
    const version = snapshot.version;
    return {
      version,
      intentions: [...state.values()].map((i) => toIntentionEvent(i, version)),
      examples: snapshot.examples.map((e) => toIntentionExampleEvent(e, version)),
    };
  }
}

/** Runs a domain rule; a 400 it throws names its fields under `prefix`, like the edge's own validation of the draft. */
function within<T>(prefix: string, rule: () => T): T {
  try {
    return rule();
  } catch (err) {
    if (!(err instanceof AppError) || err.kind !== 'invalid') throw err;
    const details = (err.extra['details'] as ErrorDetail[] | undefined)?.map((d) => {
      const path = d.path === 'body' ? prefix : `${prefix}.${d.path}`;
      return { path, message: d.message.startsWith(d.path) ? path + d.message.slice(d.path.length) : `${path}: ${d.message}` };
    });
    const message = details?.[0]?.message ?? err.message;
    throw new AppError('invalid', err.code, message, details ? { details } : {});
  }
}
