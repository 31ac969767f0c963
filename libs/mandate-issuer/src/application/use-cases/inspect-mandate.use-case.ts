import { Inject, Injectable } from '@nestjs/common';
import type { MandateViewDto } from '@igw/contracts';
import { CLOCK, notFound, type Caller, type Clock } from '@igw/kernel';
import { MANDATE_REPOSITORY, type MandateRepository } from '../ports/mandate.repository.port';
import { toMandateView } from './views';

/** `GET /v1/mandate/{cred_id}`: the record as of now, never the credential. */
@Injectable()
export class InspectMandateUseCase {
  constructor(
    @Inject(MANDATE_REPOSITORY) private readonly mandates: MandateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, credId: string): Promise<MandateViewDto> {
    const stored = await this.mandates.find(caller.orgId, credId);
    if (!stored) throw notFound('mandate');
    return toMandateView(stored.mandate, this.clock.now());
  }
}
