import { Injectable } from '@nestjs/common';
import type { StatsPartApi, StatsPartDto, StatsWindow } from '@igw/contracts';
import { ApprovalUseCase } from './approval-use-case';

/**
 * The approvals part of the overview (GET /v1/stats): the backlog as of `at` — it does not depend
 * on the window — and the age of its oldest request.
 */
@Injectable()
export class ReadApprovalStatsUseCase extends ApprovalUseCase implements StatsPartApi {
  async read(orgId: string, _window: StatsWindow, at: Date): Promise<StatsPartDto> {
    const { pending, oldestCreatedAt } = await this.approvals.backlog(orgId, at);
    const age = oldestCreatedAt === null ? null : Math.max(0, Math.floor((at.getTime() - oldestCreatedAt.getTime()) / 1000));
    return { approvals: { pending, oldest_pending_age_seconds: age } };
  }
}
