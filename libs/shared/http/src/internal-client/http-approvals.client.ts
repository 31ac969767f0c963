import { APPROVAL_STATUSES, type ApprovalDto, type ApprovalsApi, type CreateApprovalRequestDto } from '@igw/contracts';
import { DependencyUnavailableError, type Caller, type Scope } from '@igw/kernel';
import { InternalServiceResponseError, type InternalResponse, type InternalServiceClient } from './internal-service.client';

/** The agent's key asks for or uses an approval: read_only is enough, its own scope if known. */
export type ApprovalsCaller = Pick<Caller, 'orgId' | 'keyId'> & { scope?: Scope };

/**
 * Distributed mode: ApprovalsApi over the approvals service's internal routes
 * (`/internal/approvals`). Outage → DependencyUnavailableError (503); any other unexpected status →
 * InternalServiceResponseError (a bug, 500).
 */
export class HttpApprovalsClient implements ApprovalsApi {
  constructor(private readonly http: InternalServiceClient) {}

  /** 201 (or 200) → the pending approval. */
  async create(caller: ApprovalsCaller, request: CreateApprovalRequestDto): Promise<ApprovalDto> {
    const res = await this.http.request('POST', '/internal/approvals', this.callerOf(caller), request);
    if (res.status !== 201 && res.status !== 200) throw InternalServiceResponseError.of(this.http.service, 'POST /internal/approvals', res);
    return this.approvalOf(res, caller.orgId);
  }

  /** 200 → the approval just used; 404 → null (none approved, unused and unexpired for this call). */
  async consume(caller: ApprovalsCaller, fingerprint: string): Promise<ApprovalDto | null> {
    const res = await this.http.request('POST', '/internal/approvals/consume', this.callerOf(caller), { fingerprint });
    if (res.status === 404) return null;
    if (res.status !== 200) throw InternalServiceResponseError.of(this.http.service, 'POST /internal/approvals/consume', res);
    return this.approvalOf(res, caller.orgId);
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  private callerOf(caller: ApprovalsCaller): Caller {
    return { orgId: caller.orgId, keyId: caller.keyId, scope: caller.scope ?? 'read_only' };
  }

  /** A body that is not an approval of the caller's org means the service is broken: fail closed. */
  private approvalOf(res: InternalResponse<unknown>, orgId: string): ApprovalDto {
    const body = res.body as Partial<Record<keyof ApprovalDto, unknown>> | null;
    const ok =
      body !== null &&
      typeof body === 'object' &&
      !Array.isArray(body) &&
      typeof body.id === 'string' &&
      body.org_id === orgId &&
      APPROVAL_STATUSES.includes(body.status as ApprovalDto['status']);
    if (!ok)
      throw new DependencyUnavailableError(this.http.service, new Error(`approvals answered ${res.status} with a body that is not an approval of ${orgId}`));
    return body as ApprovalDto;
  }
}
