import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from '@igw/kernel';
import { Topics } from '../events/topics';
import { PageOf } from './common.dto';

/** The public event types a webhook can subscribe to (the topics with a `webhookType`). */
const WEBHOOK_EVENT_TYPES: readonly string[] = Object.values(Topics).flatMap((t) => (typeof t.webhookType === 'string' ? [t.webhookType] : []));

/** Body of POST /v1/webhooks (DESIGN 6.11). */
export class CreateWebhookDto {
  @ApiProperty({
    example: 'https://hooks.example.com/intent-gateway',
    maxLength: 2048,
    description: 'An absolute http(s) URL without credentials whose host resolves to public addresses only.',
  })
  @IsString({ message: 'url must be a string' })
  @IsNotEmpty({ message: 'url is required' })
  @MaxLength(2048)
  url!: string;

  @ApiProperty({
    isArray: true,
    enum: WEBHOOK_EVENT_TYPES,
    minItems: 1,
    maxItems: 32,
    example: ['decision.made', 'approval.requested'],
    description: 'The event types to deliver; a type named twice is kept once.',
  })
  @IsArray({ message: 'events must be a list of event types' })
  @ArrayMinSize(1, { message: 'events must name at least one event type' })
  @ArrayMaxSize(32)
  @IsString({ each: true, message: 'events must be a list of event types' })
  events!: string[];

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class WebhookDto {
  @ApiProperty() id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: [String] }) events!: string[];
  @ApiPropertyOptional({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ enum: ['active', 'disabled'] }) status!: 'active' | 'disabled';
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Why it was disabled (e.g. the endpoint answered 410).' }) disabled_reason!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/** POST /v1/webhooks answer: the signing secret is shown this once. */
export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({
    example: 'whsec_ZXhhbXBsZS1zZWNyZXQtbm90LXJlYWwh',
    description: 'The Standard Webhooks signing secret (`whsec_` + base64 of 24 random bytes); shown this once, stored sealed.',
  })
  secret!: string;
}

export class WebhookListDto extends PageOf(WebhookDto) {}

/** POST /v1/webhooks/{id}/rotate-secret answer. */
export class RotatedWebhookSecretDto {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'whsec_cm90YXRlZC1zZWNyZXQtbm90LXJlYWwh', description: 'The new signing secret (`whsec_` + base64 of 24 random bytes); shown once.' })
  secret!: string;
  @ApiProperty({ format: 'date-time', description: 'Until then the previous secret signs too.' }) previous_secret_expires_at!: string;
}

/**
 * pending: waiting for its next attempt; succeeded: a 2xx; exhausted: the retry schedule ran out;
 * failed: the endpoint answered 410 Gone (and was disabled); cancelled: the webhook was disabled
 * or deleted before it could be delivered.
 */
export { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus };

export class WebhookDeliveryDto {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'The event id, sent as `webhook-id` on every attempt.' }) event_id!: string;
  @ApiProperty() event_type!: string;
  @ApiProperty({ enum: WEBHOOK_DELIVERY_STATUSES }) status!: WebhookDeliveryStatus;
  @ApiProperty() attempts!: number;
  @ApiPropertyOptional({ nullable: true, type: Number }) last_response_code!: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) last_error!: string | null;
  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String }) next_attempt_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String }) delivered_at!: string | null;
}

export class WebhookDeliveryListDto extends PageOf(WebhookDeliveryDto) {}
