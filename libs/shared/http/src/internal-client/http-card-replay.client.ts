import type { CardReplayApi, ReplayRequestDto, ReplayResultDto } from '@igw/contracts';
import { AppError, DependencyUnavailableError, type Caller } from '@igw/kernel';
import { InternalServiceResponseError, type InternalServiceClient } from './internal-service.client';

const ROUTE = '/internal/replays/card';
const PASSED_ON: Record<number, AppError['kind']> = { 400: 'invalid', 409: 'conflict' };

/**
 * Distributed mode: CardReplayApi over the decision proxy's `POST /internal/replays/card`, as the
 * caller (policy_write, checked at the edge). 400 and 409 are the caller's draft or cursor refused
 * and pass on as the same error; a 503 `replay_deadline` passes on with its `replayed` (another
 * 503 is the proxy unavailable); any other status below 500 is a bug (500), an outage a 503.
 */
export class HttpCardReplayClient implements CardReplayApi {
  constructor(private readonly http: InternalServiceClient) {}

  async replayCard(caller: Pick<Caller, 'orgId' | 'keyId'>, request: ReplayRequestDto): Promise<ReplayResultDto> {
    const res = await this.http.request<ReplayResultDto>('POST', ROUTE, { orgId: caller.orgId, keyId: caller.keyId, scope: 'policy_write' }, request, {
      returnStatuses: [503],
    });
    if (res.status === 200) return res.body;
    const body = res.body as unknown as { code?: unknown; message?: unknown; details?: unknown; replayed?: unknown } | null;
    if (res.status === 503) {
      if (body?.code === 'replay_deadline' && typeof body.message === 'string' && typeof body.replayed === 'number') {
        throw new AppError('unavailable', 'replay_deadline', body.message, { replayed: body.replayed });
      }
      throw new DependencyUnavailableError(this.http.service, new Error(`POST ${ROUTE} answered 503`));
    }
    const kind = PASSED_ON[res.status];
    if (kind && typeof body?.code === 'string' && typeof body.message === 'string') {
      throw new AppError(kind, body.code, body.message, Array.isArray(body.details) ? { details: body.details } : {});
    }
    throw InternalServiceResponseError.of(this.http.service, `POST ${ROUTE}`, res);
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}
