import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, retentionCutoff, type CallRetention, type Clock } from '@igw/kernel';
import { DECISION_CALLS, type DecisionCalls } from '../ports/decision-calls.port';
import { DECISION_CALL_RETENTION } from '../retention/call-retention.options';

/**
 * Deletes every org's kept mandate-path calls older than the retention window (DESIGN 6.16); the
 * decisions stay in the list without them. Retention 0 clears every kept call. Returns how many.
 */
@Injectable()
export class PurgeExpiredDecisionCallsUseCase {
  constructor(
    @Inject(DECISION_CALLS) private readonly calls: DecisionCalls,
    @Inject(DECISION_CALL_RETENTION) private readonly retention: Pick<CallRetention, 'days'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(): Promise<number> {
    return this.calls.purgeBefore(retentionCutoff(this.clock.now(), this.retention));
  }
}
