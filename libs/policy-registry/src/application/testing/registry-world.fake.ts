import { FixedClock } from '@igw/kernel';
import { ArchiveIntentionUseCase } from '../use-cases/archive-intention.use-case';
import { CreateIntentionUseCase } from '../use-cases/create-intention.use-case';
import { DeleteIntentCardUseCase } from '../use-cases/delete-intent-card.use-case';
import { GetActiveIntentionsUseCase } from '../use-cases/get-active-intentions.use-case';
import { GetIntentCardUseCase } from '../use-cases/get-intent-card.use-case';
import { GetIntentCardsSnapshotUseCase } from '../use-cases/get-intent-cards-snapshot.use-case';
import { GetIntentionUseCase } from '../use-cases/get-intention.use-case';
import { InstallIntentCardUseCase } from '../use-cases/install-intent-card.use-case';
import { ListIntentCardsUseCase } from '../use-cases/list-intent-cards.use-case';
import { ListIntentionsUseCase } from '../use-cases/list-intentions.use-case';
import { PublishIntentionUseCase } from '../use-cases/publish-intention.use-case';
import { InMemoryIntentCardRepository, InMemoryIntentionRepository } from './in-memory-repositories.fake';

/** Where the specs' clock starts. */
export const SPEC_T0 = new Date('2026-03-01T10:00:00.000Z');

/** A fresh store, a fixed clock at SPEC_T0 and the use cases `build` makes over them. */
function world<R, U>(repo: R, build: (repo: R, clock: FixedClock) => U): { repo: R; clock: FixedClock } & U {
  const clock = new FixedClock(SPEC_T0);
  return { repo, clock, ...build(repo, clock) };
}

/** Every intention use case over one fresh in-memory store and a fixed clock. */
export const intentionWorld = () =>
  world(new InMemoryIntentionRepository(), (repo, clock) => ({
    create: new CreateIntentionUseCase(repo, clock),
    get: new GetIntentionUseCase(repo),
    list: new ListIntentionsUseCase(repo),
    publish: new PublishIntentionUseCase(repo, clock),
    archive: new ArchiveIntentionUseCase(repo, clock),
    active: new GetActiveIntentionsUseCase(repo),
  }));

/** Every intent card use case over one fresh in-memory store and a fixed clock. */
export const intentCardWorld = () =>
  world(new InMemoryIntentCardRepository(), (repo, clock) => ({
    install: new InstallIntentCardUseCase(repo, clock),
    get: new GetIntentCardUseCase(repo),
    list: new ListIntentCardsUseCase(repo),
    remove: new DeleteIntentCardUseCase(repo, clock),
    snapshot: new GetIntentCardsSnapshotUseCase(repo),
  }));
