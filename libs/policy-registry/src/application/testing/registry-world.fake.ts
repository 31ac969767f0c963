import { FixedClock, type Caller, type Clock } from '@igw/kernel';
import type { IntentCardRepository } from '../ports/intent-card.repository.port';
import type { IntentionExampleRepository } from '../ports/intention-example.repository.port';
import type { IntentionRepository } from '../ports/intention.repository.port';
import { AddIntentionExampleUseCase } from '../use-cases/add-intention-example.use-case';
import { ForgetTaughtExamplesUseCase } from '../use-cases/forget-taught-examples.use-case';
import { ListIntentionExamplesUseCase } from '../use-cases/list-intention-examples.use-case';
import { RemoveIntentionExampleUseCase } from '../use-cases/remove-intention-example.use-case';
import { TeachIntentionExamplesUseCase } from '../use-cases/teach-intention-examples.use-case';
import { UpdateIntentionUseCase } from '../use-cases/update-intention.use-case';
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
import { InMemoryIntentionExampleRepository } from './in-memory-intention-examples.fake';
import { InMemoryIntentCardRepository, InMemoryIntentionRepository } from './in-memory-repositories.fake';

/** Where the specs' clock starts. */
export const SPEC_T0 = new Date('2026-03-01T10:00:00.000Z');

/** The storage specs' caller: a policy writer of `orgId`. */
export const policyWriter = (orgId: string): Caller => ({ orgId, keyId: 'key_1', scope: 'policy_write' });

/** Every intention use case over `repo` (in memory, or the Prisma one in its int-spec) and `clock`. */
export function intentionUseCases<R extends IntentionRepository, C extends Clock>(repo: R, clock: C) {
  return {
    repo,
    clock,
    create: new CreateIntentionUseCase(repo, clock),
    get: new GetIntentionUseCase(repo),
    list: new ListIntentionsUseCase(repo),
    publish: new PublishIntentionUseCase(repo, clock),
    archive: new ArchiveIntentionUseCase(repo, clock),
    update: new UpdateIntentionUseCase(repo, clock),
    active: new GetActiveIntentionsUseCase(repo),
  };
}

/** Every intention and example use case over `repo` and `examples` (one store: in memory, or Prisma in its int-spec). */
export function intentionExampleUseCases<R extends IntentionRepository, E extends IntentionExampleRepository, C extends Clock>(repo: R, examples: E, clock: C) {
  return {
    ...intentionUseCases(repo, clock),
    examples,
    addExample: new AddIntentionExampleUseCase(examples, clock),
    listExamples: new ListIntentionExamplesUseCase(repo, examples),
    removeExample: new RemoveIntentionExampleUseCase(examples, clock),
    teach: new TeachIntentionExamplesUseCase(examples, clock),
    forgetTaught: new ForgetTaughtExamplesUseCase(examples, clock),
  };
}

/** Every intent card use case over `repo` and `clock`. */
export function intentCardUseCases<R extends IntentCardRepository, C extends Clock>(repo: R, clock: C) {
  return {
    repo,
    clock,
    install: new InstallIntentCardUseCase(repo, clock),
    get: new GetIntentCardUseCase(repo),
    list: new ListIntentCardsUseCase(repo),
    remove: new DeleteIntentCardUseCase(repo, clock),
    snapshot: new GetIntentCardsSnapshotUseCase(repo),
  };
}

/** Every intention use case over one fresh in-memory store and a fixed clock. */
export const intentionWorld = () => intentionUseCases(new InMemoryIntentionRepository(), new FixedClock(SPEC_T0));

/** Every intention and example use case over one fresh in-memory store and a fixed clock. */
export function intentionExampleWorld() {
  const repo = new InMemoryIntentionRepository();
  return intentionExampleUseCases(repo, new InMemoryIntentionExampleRepository(repo), new FixedClock(SPEC_T0));
}

/** Every intent card use case over one fresh in-memory store and a fixed clock. */
export const intentCardWorld = () => intentCardUseCases(new InMemoryIntentCardRepository(), new FixedClock(SPEC_T0));
