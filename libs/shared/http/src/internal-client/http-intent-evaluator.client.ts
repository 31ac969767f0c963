import { EVALUATION_OUTCOMES, type EvaluateIntentRequestDto, type EvaluateIntentResponseDto, type IntentEvaluatorApi } from '@igw/contracts';
import { AppError, DependencyUnavailableError, type Caller } from '@igw/kernel';
import { InternalServiceResponseError, type InternalServiceClient } from './internal-service.client';

/**
 * Distributed mode: IntentEvaluatorApi over the evaluator's own `POST /v1/intent/evaluate`, as the
 * caller (read_only is what the route asks). A 400 is the caller's call being invalid and stays a
 * 400; an outage is a 503 (DependencyUnavailableError); any other status is a bug (500).
 */
export class HttpIntentEvaluatorClient implements IntentEvaluatorApi {
  constructor(private readonly http: InternalServiceClient) {}

  async evaluate(caller: Pick<Caller, 'orgId' | 'keyId'>, request: EvaluateIntentRequestDto): Promise<EvaluateIntentResponseDto> {
    const res = await this.http.request('POST', '/v1/intent/evaluate', { orgId: caller.orgId, keyId: caller.keyId, scope: 'read_only' }, request);
    if (res.status === 400) {
      const body = res.body as { code?: unknown; message?: unknown } | null;
      throw new AppError('invalid', 'invalid_request', typeof body?.message === 'string' ? body.message : 'the evaluator refused the request');
    }
    if (res.status !== 200) throw InternalServiceResponseError.of(this.http.service, 'POST /v1/intent/evaluate', res);
    const body = res.body as Partial<EvaluateIntentResponseDto> | null;
    // Fail closed on anything that is not an evaluation: never forward on a body we cannot read.
    if (body === null || typeof body !== 'object' || !EVALUATION_OUTCOMES.includes(body.outcome as never) || typeof body.intent_event_id !== 'string') {
      throw new DependencyUnavailableError(this.http.service, new Error('the evaluator answered 200 with a body that is not an evaluation'));
    }
    return body as EvaluateIntentResponseDto;
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}
