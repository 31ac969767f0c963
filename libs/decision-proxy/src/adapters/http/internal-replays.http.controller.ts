import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CARD_REPLAY_API, ReplayRequestDto, type CardReplayApi, type ReplayResultDto } from '@igw/contracts';
import { CurrentCaller, RequireScope } from '@igw/http';
import type { Caller } from '@igw/kernel';

/**
 * CardReplayApi over HTTP (distributed mode): the evaluator's `POST /v1/replays` hands a
 * `kind: "card"` body over here, as the caller (internal token, caller headers naming the org).
 * The body was validated at the edge and is validated again here. policy_write, as the replay.
 */
@ApiExcludeController()
@Controller('internal/replays')
export class InternalReplaysHttpController {
  constructor(@Inject(CARD_REPLAY_API) private readonly replays: CardReplayApi) {}

  @Post('card')
  @HttpCode(200)
  @RequireScope('policy_write')
  replayCard(@CurrentCaller() caller: Caller, @Body() body: ReplayRequestDto): Promise<ReplayResultDto> {
    return this.replays.replayCard(caller, body);
  }
}
