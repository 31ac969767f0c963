import type { CreateIntentionDto, UpdateIntentionDto } from '@igw/contracts';
import type { IntentionChanges, NewIntention } from '../../domain/intention';

/** The body of `POST /v1/intentions` as the domain's input (a create, or a replay's draft create). */
export function newIntentionOf(input: CreateIntentionDto): NewIntention {
  return {
    label: input.label,
    intentClass: input.intent_class,
    displayName: input.display_name,
    description: input.description,
    approvalRequired: input.approval_required,
    ttlMinutes: input.ttl_minutes,
    dataElements: input.data_elements?.map((d) => ({ dataSourceId: d.data_source_id, path: d.path })),
    tools: input.tools,
  };
}

/** The body of `PATCH /v1/intentions/{id}` as the domain's changes (an update, or a replay's draft update). */
export function intentionChangesOf(input: UpdateIntentionDto | undefined): IntentionChanges {
  const body = input ?? {};
  return {
    displayName: body.display_name,
    description: body.description,
    intentClass: body.intent_class,
    approvalRequired: body.approval_required,
    ttlMinutes: body.ttl_minutes,
    dataElements: body.data_elements?.map((d) => ({ dataSourceId: d.data_source_id, path: d.path })),
    tools: body.tools,
  };
}
