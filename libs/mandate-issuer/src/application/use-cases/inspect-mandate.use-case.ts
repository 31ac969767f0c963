import { Injectable } from '@nestjs/common';
import type { MandateViewDto } from '@igw/contracts';
import { foundOr404, type Caller } from '@igw/kernel';
import { toMandateView } from './views';
import { MandateReadUseCase } from './mandate-read-use-case';

/** `GET /v1/mandate/{cred_id}`: the record as of now, never the credential. */
@Injectable()
export class InspectMandateUseCase extends MandateReadUseCase {
  async execute(caller: Caller, credId: string): Promise<MandateViewDto> {
    const stored = foundOr404(await this.mandates.find(caller.orgId, credId), 'mandate');
    return toMandateView(stored.mandate, this.clock.now());
  }
}
