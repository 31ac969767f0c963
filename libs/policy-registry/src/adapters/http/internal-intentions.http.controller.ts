import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ActiveIntentionsDto } from '@igw/contracts';
import { CurrentCaller } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { GetActiveIntentionsUseCase } from '../../application/use-cases/get-active-intentions.use-case';

/**
 * Service-to-service routes of distributed mode (the evaluator refreshes its cache here; the
 * gateway never forwards `/internal/*`). The caller is resolved from the internal token headers
 * like every route of the app and only ever reads its own org; read_only is enough. Not part of
 * the public OpenAPI document.
 */
@ApiExcludeController()
@Controller('internal/intentions')
export class InternalIntentionsHttpController {
  constructor(private readonly getActiveIntentions: GetActiveIntentionsUseCase) {}

  @Get('active')
  active(@CurrentCaller() caller: Caller): Promise<ActiveIntentionsDto> {
    return this.getActiveIntentions.execute(caller.orgId);
  }
}
