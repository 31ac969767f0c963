import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
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
import { ApiStatusPage, CurrentCaller, PageQuery, RequireScope, ResourceAction, type StatusPageQuery } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { DeleteWebhookUseCase } from '../../application/use-cases/delete-webhook.use-case';
import { EnableWebhookUseCase } from '../../application/use-cases/enable-webhook.use-case';
import { ListDeliveriesUseCase } from '../../application/use-cases/list-deliveries.use-case';
import { ListWebhooksUseCase } from '../../application/use-cases/list-webhooks.use-case';
import { RegisterWebhookUseCase } from '../../application/use-cases/register-webhook.use-case';
import { RotateWebhookSecretUseCase } from '../../application/use-cases/rotate-webhook-secret.use-case';

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
  @ApiOperation({ summary: 'Register an endpoint for event types; the signing secret is shown once.' })
  @ApiResponse({ status: 201, type: CreatedWebhookDto })
  @ApiResponse({ status: 400, type: ErrorDto, description: 'invalid_request: url (shape, or a private/loopback/link-local destination), events' })
  create(@CurrentCaller() caller: Caller, @Body() body: CreateWebhookDto): Promise<CreatedWebhookDto> {
    return this.register.execute(caller, body);
  }

  @Get()
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } })
  @ApiQuery({ name: 'cursor', required: false, type: String })
  @ApiResponse({ status: 200, type: WebhookListDto })
  list(@CurrentCaller() caller: Caller, @Query('limit') limit?: string | string[], @Query('cursor') cursor?: string | string[]): Promise<WebhookListDto> {
    return this.listWebhooks.execute(caller, { limit, cursor });
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove an endpoint; its pending deliveries are dropped.' })
  @ApiResponse({ status: 204 })
  @ApiResponse({ status: 404, type: ErrorDto })
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.deleteWebhook.execute(caller, id);
  }

  @ResourceAction('rotate-secret', RotatedWebhookSecretDto)
  @ApiOperation({ summary: 'A new signing secret (shown once); the previous one keeps signing for 24 h.' })
  @ApiResponse({ status: 404, type: ErrorDto })
  rotateSecret(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<RotatedWebhookSecretDto> {
    return this.rotate.execute(caller, id);
  }

  @ResourceAction('enable', WebhookDto)
  @ApiOperation({ summary: 'Take events again after the endpoint was disabled (410 Gone); deliveries cancelled meanwhile are not sent.' })
  @ApiResponse({ status: 404, type: ErrorDto })
  enable(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<WebhookDto> {
    return this.enableWebhook.execute(caller, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "The endpoint's deliveries: status, attempts, last response code, next attempt." })
  @ApiStatusPage(WEBHOOK_DELIVERY_STATUSES, WebhookDeliveryListDto)
  @ApiResponse({ status: 404, type: ErrorDto })
  deliveries(@CurrentCaller() caller: Caller, @Param('id') id: string, @PageQuery() query: StatusPageQuery): Promise<WebhookDeliveryListDto> {
    return this.listDeliveries.execute(caller, id, query);
  }
}
