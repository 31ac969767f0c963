import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@igw/kernel';
import { retentionCutoff } from '../../domain/evaluation/retained-call';
import { KEPT_CALLS, type KeptCalls } from '../ports/intent-event.repository.port';
import { CALL_RETENTION, type CallRetention } from '../retention/call-retention.options';

/**
 * Deletes every org's kept calls older than the retention window (DESIGN 6.16); the evaluations
 * stay in history without them. With retention 0 every kept call is past the window, so turning
 * retention off also clears what was kept before. Returns how many calls were deleted.
 */
@Injectable()
export class PurgeExpiredCallsUseCase {
  constructor(
    @Inject(KEPT_CALLS) private readonly calls: KeptCalls,
    @Inject(CALL_RETENTION) private readonly retention: CallRetention,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(): Promise<number> {
    return this.calls.purgeBefore(retentionCutoff(this.clock.now(), this.retention));
  }
}
