import { AppError } from '@igw/kernel';
import type { ActiveIntentionsDto, IntentionEventV1, TaughtExamplesDto, TeachFromApprovalDto } from '@igw/contracts';
import type { RegistryTeacher } from '../ports/registry-teacher.port';

/**
 * Test double of the registry's teaching port: active intentions by label, what was taught per
 * approval (forgotten on `forgetTaught`), and a failure to answer `teach` with when set.
 */
export class FakeRegistryTeacher implements RegistryTeacher {
  readonly taught = new Map<string, TeachFromApprovalDto>();
  readonly calls: string[] = [];
  /** When set, `teach` rejects with it and stores nothing. */
  teachFailure: Error | null = null;

  constructor(readonly labels: string[] = []) {}

  async activeIntentions(): Promise<ActiveIntentionsDto> {
    this.calls.push('activeIntentions');
    const intentions = this.labels.map((label, i) => ({ id: `int_${label}`, label, org_version: i + 1 }) as IntentionEventV1);
    return { version: this.labels.length, intentions };
  }

  async teach(orgId: string, request: TeachFromApprovalDto): Promise<TaughtExamplesDto> {
    this.calls.push(`teach ${request.approval_id}`);
    if (this.teachFailure) throw this.teachFailure;
    const unknown = request.examples.find((e) => !this.labels.includes(e.intention_label));
    if (unknown) throw new AppError('not_found', 'intent_not_found', `intention ${unknown.intention_label} not found`);
    this.taught.set(request.approval_id, structuredClone(request));
    return { examples: [] };
  }

  async forgetTaught(orgId: string, approvalId: string): Promise<void> {
    this.calls.push(`forgetTaught ${approvalId}`);
    this.taught.delete(approvalId);
  }
}
