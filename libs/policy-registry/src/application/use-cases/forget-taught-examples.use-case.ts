import { Injectable } from '@nestjs/common';
import { IntentionExampleWriteUseCase } from './intention-example-use-case';

/**
 * Removes what `teach` stored for an approval (PolicyRegistryApi.forgetTaught), the compensation
 * when the decision itself failed: one `intention_example.removed` per example. Nothing stored
 * for it is not an error (the compensation may be retried).
 */
@Injectable()
export class ForgetTaughtExamplesUseCase extends IntentionExampleWriteUseCase {
  async execute(orgId: string, approvalId: string): Promise<void> {
    await this.examples.forgetTaught(orgId, approvalId, this.removed(this.clock.now()));
  }
}
