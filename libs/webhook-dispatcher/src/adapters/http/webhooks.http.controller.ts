import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  CreatedWebhookDto,
  CreateWebhookDto,
  ErrorDto,
  RotatedWebhookSecretDto,
  WEBHOOK_DELIVERY_STATUSES,
  WebhookDeliveryListDto,
  WebhookDto,
  WebhookListDto,
} from '@igw/contracts';
import {
  ApiJsonBody,
  ApiOp,
  ApiPagedList,
  ApiStatusPage,
  CurrentCaller,
  PageQuery,
  RequireScope,
  ResourceAction,
  type StatusPageQuery,
  ApiNotFound,
} from '@igw/http';
import type { Caller } from '@igw/kernel';
import { DeleteWebhookUseCase } from '../../application/use-cases/delete-webhook.use-case';
import { EnableWebhookUseCase } from '../../application/use-cases/enable-webhook.use-case';
import { ListDeliveriesUseCase } from '../../application/use-cases/list-deliveries.use-case';
import { ListWebhooksUseCase } from '../../application/use-cases/list-webhooks.use-case';
import { RegisterWebhookUseCase } from '../../application/use-cases/register-webhook.use-case';
import { RotateWebhookSecretUseCase } from '../../application/use-cases/rotate-webhook-secret.use-case';
import {
  CREATE_WEBHOOK_400_EXAMPLES,
  CREATE_WEBHOOK_EXAMPLES,
  CREATED_WEBHOOK_EXAMPLE,
  ENABLED_WEBHOOK_EXAMPLE,
  ROTATED_WEBHOOK_SECRET_EXAMPLE,
  WEBHOOK_DELIVERY_LIST_EXAMPLE,
  WEBHOOK_LIST_EXAMPLE,
} from './webhooks.examples';

/** The use cases this controller drives: the module provides them with it. */
export const WEBHOOKS_USE_CASES = [
  RegisterWebhookUseCase,
  ListWebhooksUseCase,
  DeleteWebhookUseCase,
  RotateWebhookSecretUseCase,
  EnableWebhookUseCase,
  ListDeliveriesUseCase,
];

/** DESIGN 6.11: webhooks are managed by admin keys of the org. */
@ApiTags('webhooks')
@RequireScope('admin')
@Controller('v1/webhooks')
export class WebhooksHttpController {
  constructor(
    private readonly register: RegisterWebhookUseCase,
    private readonly listWebhooks: ListWebhooksUseCase,
    private readonly deleteWebhook: DeleteWebhookUseCase,
    private readonly rotate: RotateWebhookSecretUseCase,
    private readonly enableWebhook: EnableWebhookUseCase,
    private readonly listDeliveries: ListDeliveriesUseCase,
  ) {}

  @Post()
  @ApiOp({
    id: 'createWebhook',
    summary: 'Register an endpoint for event types; its signing secret is shown once.',
    description:
      'Each event of a subscribed type is POSTed to `url` as Standard Webhooks: body `{type, timestamp, data}`, headers `webhook-id` (the event id, the same on every attempt), `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 with the secret). Keep `secret` from this answer: it is stored sealed and never shown again (rotate it to get a new one). The URL is checked now: its host must resolve to public addresses only (private, loopback and link-local are refused), and again at every delivery. Only a 2xx counts as delivered (redirects are not followed); other answers and timeouts are retried, by default after 5 s, 5 min, 30 min, 2 h, 5 h and 10 h, honouring a longer `Retry-After`; 410 Gone disables the endpoint. Registering twice makes two endpoints, each with its own secret. Needs admin.',
  })
  @ApiJsonBody(CreateWebhookDto, CREATE_WEBHOOK_EXAMPLES)
  @ApiResponse({
    status: 201,
    type: CreatedWebhookDto,
    description: 'The new endpoint, active, with its signing secret (shown this once).',
    example: CREATED_WEBHOOK_EXAMPLE,
  })
  @ApiResponse({
    status: 400,
    type: ErrorDto,
    description:
      '`invalid_request`: `url` is not an absolute http(s) URL, carries credentials, does not resolve or resolves to a non-public address; `events` is empty or names an unknown type',
    examples: CREATE_WEBHOOK_400_EXAMPLES,
  })
  create(@CurrentCaller() caller: Caller, @Body() body: CreateWebhookDto): Promise<CreatedWebhookDto> {
    return this.register.execute(caller, body);
  }

  @Get()
  @ApiOp({
    id: 'listWebhooks',
    summary: "List the org's webhook endpoints, newest first.",
    description: 'Secrets are never listed. Keyset-paged: pass `next_cursor` as `cursor` until it is null. Needs admin.',
  })
  @ApiPagedList(WebhookListDto, 50, WEBHOOK_LIST_EXAMPLE)
  list(@CurrentCaller() caller: Caller, @Query('limit') limit?: string | string[], @Query('cursor') cursor?: string | string[]): Promise<WebhookListDto> {
    return this.listWebhooks.execute(caller, { limit, cursor });
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOp({
    id: 'removeWebhook',
    summary: 'Remove an endpoint and its delivery history.',
    description:
      "No event is delivered to it from now on: its deliveries, pending and past, are deleted with it (an attempt already under way may still arrive). Deleting it again, or another org's id, is a 404. Needs admin.",
  })
  @ApiResponse({ status: 204, description: 'Removed; no body.' })
  @ApiNotFound('webhook')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.deleteWebhook.execute(caller, id);
  }

  @ResourceAction('rotate-secret', RotatedWebhookSecretDto, undefined, ROTATED_WEBHOOK_SECRET_EXAMPLE)
  @ApiOp({
    id: 'rotateWebhookSecret',
    summary: 'Rotate the signing secret: a new one, shown once.',
    description:
      'The new secret signs from now on; the previous one keeps signing until `previous_secret_expires_at` (24 h), so during the overlap every delivery carries one `v1,` signature per secret, newest first: switch your verifier over before then. Rotating again within the overlap keeps every secret still signing for at most 24 h more. No body. Needs admin.',
  })
  @ApiNotFound('webhook')
  rotateSecret(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<RotatedWebhookSecretDto> {
    return this.rotate.execute(caller, id);
  }

  @ResourceAction('enable', WebhookDto, undefined, ENABLED_WEBHOOK_EXAMPLE)
  @ApiOp({
    id: 'enableWebhook',
    summary: 'Enable an endpoint again after it was disabled.',
    description:
      'An endpoint is disabled when it answers 410 Gone; its pending deliveries are then cancelled. Enabling makes it active and clears `disabled_reason`: events from now on are delivered, what was cancelled meanwhile is not sent. Enabling an active endpoint changes nothing. No body. Needs admin.',
  })
  @ApiNotFound('webhook')
  enable(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<WebhookDto> {
    return this.enableWebhook.execute(caller, id);
  }

  @Get(':id/deliveries')
  @ApiOp({
    id: 'listWebhookDeliveries',
    summary: "An endpoint's deliveries, newest first.",
    description:
      'One delivery per event sent to this endpoint: its status, attempts, last response code or error, and next attempt. `pending` waits for its next attempt, `succeeded` got a 2xx, `exhausted` ran out of retries, `failed` got 410 Gone (the endpoint was disabled), `cancelled` was dropped because the endpoint was disabled. Keyset-paged: pass `next_cursor` as `cursor` until it is null. Needs admin.',
  })
  @ApiStatusPage(WEBHOOK_DELIVERY_STATUSES, WebhookDeliveryListDto, WEBHOOK_DELIVERY_LIST_EXAMPLE)
  @ApiNotFound('webhook')
  deliveries(@CurrentCaller() caller: Caller, @Param('id') id: string, @PageQuery() query: StatusPageQuery): Promise<WebhookDeliveryListDto> {
    return this.listDeliveries.execute(caller, id, query);
  }
}
