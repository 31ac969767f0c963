import type { ValidationError } from '@nestjs/common';
import {
  ConsumeApprovalDto,
  CreateApiKeyDto,
  CreateApprovalRequestDto,
  CreateIntentionDto,
  CreateOrgDto,
  CreateWebhookDto,
  DispenseMandateDto,
  EvaluateIntentRequestDto,
  InstallIntentCardDto,
  McpProxyCallDto,
  RefreshMandateDto,
  ResolveReviewDto,
  RevokeMandateDto,
  VerifyGrantRequestDto,
} from '@igw/contracts';
import { AppError } from '@igw/kernel';
import { createValidationPipe, flattenValidationErrors } from './validation';

const pipe = createValidationPipe();

type Body = Record<string, unknown>;
type Dto = new () => object;

async function refusal(metatype: Dto, body: unknown): Promise<AppError> {
  const err = await pipe.transform(body, { type: 'body', metatype }).then(
    () => {
      throw new Error('expected a 400');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect(err).toMatchObject({ kind: 'invalid', code: 'invalid_request' });
  return err as AppError;
}

const detailsOf = (err: AppError) => err.extra['details'] as { path: string; message: string }[];

/** The properties Swagger documents as required (`@ApiProperty`, not `@ApiPropertyOptional`). */
function documentedRequired(metatype: Dto): string[] {
  const names = (Reflect.getMetadata('swagger/apiModelPropertiesArray', metatype.prototype) as string[] | undefined) ?? [];
  return names
    .map((n) => n.replace(/^:/, ''))
    .filter((name) => (Reflect.getMetadata('swagger/apiModelProperties', metatype.prototype, name) as { required?: boolean } | undefined)?.required !== false);
}

/** A valid body of every request DTO a route takes (public and internal). */
const VALID: [Dto, Body][] = [
  [CreateApiKeyDto, { name: 'ci', scope: 'read_only' }],
  [CreateOrgDto, { name: 'acme' }],
  [CreateWebhookDto, { url: 'https://hooks.example.com/x', events: ['decision.made'] }],
  [CreateIntentionDto, { label: 'crm.lookup', intent_class: 'lookup', data_elements: [{ data_source_id: 'crm', path: 'contacts.email' }] }],
  [
    InstallIntentCardDto,
    {
      id: 'crm',
      name: 'CRM',
      allowed_scope: { operations: ['crm.*'], resources: ['crm://**'] },
      audiences: ['crm-api'],
      rules: [{ id: 'r1', when: 'true', decision: { kind: 'allow' } }],
    },
  ],
  [DispenseMandateDto, { actor: 'agent:a', intent_id: 'crm', requested_scope: { operations: ['crm.read'], resources: ['crm://a'] }, audience: 'crm-api' }],
  [RefreshMandateDto, { cred_id: 'cred_1' }],
  [RevokeMandateDto, { cred_id: 'cred_1' }],
  [EvaluateIntentRequestDto, { tool_call: { name: 'crm.get', arguments: { id: 1 } } }],
  [VerifyGrantRequestDto, { token: 'a.b.c', tool_call: { name: 'crm.get' } }],
  [McpProxyCallDto, { action: { surface: 'sdk', operation: 'crm.read' }, audience: 'crm-api' }],
  [ResolveReviewDto, { status: 'accepted' }],
  [CreateApprovalRequestDto, { source: 'evaluate', summary: 's', fingerprint: 'f' }],
  [ConsumeApprovalDto, { fingerprint: 'f' }],
];

describe('createValidationPipe', () => {
  // Valid bodies go on as parsed (the compiled check, compiled-validation.ts), with nothing added or lost.
  it.each(VALID.map(([dto, body]) => [dto.name, dto, body] as const))('accepts a valid %s', async (_name, metatype, body) => {
    await expect(pipe.transform(body, { type: 'body', metatype })).resolves.toEqual(body);
  });

  // Every field documented as required, left out of an otherwise valid body, says so first.
  const cases = VALID.flatMap(([dto, body]) => documentedRequired(dto).map((field) => [`${dto.name}.${field}`, dto, body, field] as const));
  it.each(cases)('%s left out: "<field> is required", and nothing else about it', async (_name, metatype, body, field) => {
    const { [field]: _left, ...rest } = body;
    const err = await refusal(metatype, rest);
    expect(err.message).toBe(`${field} is required`);
    expect(detailsOf(err)).toEqual([{ path: field, message: `${field} is required` }]);
  });

  it('documents as required exactly what it requires (the table above is not empty for the mandatory fields of DESIGN 6.8)', () => {
    expect(documentedRequired(DispenseMandateDto).sort()).toEqual(['actor', 'audience', 'intent_id', 'requested_scope']);
    expect(documentedRequired(McpProxyCallDto).sort()).toEqual(['action', 'audience']);
    expect(documentedRequired(VerifyGrantRequestDto)).toEqual(['token']);
  });

  it.each([
    [EvaluateIntentRequestDto, { tool_call: {} }, 'tool_call.name'],
    [EvaluateIntentRequestDto, { tool_call: { name: 'x' }, conversation_context: [{ role: 'user' }] }, 'conversation_context[0].content'],
    [VerifyGrantRequestDto, { token: 'a.b.c', tool_call: { arguments: {} } }, 'tool_call.name'],
    [McpProxyCallDto, { action: { surface: 'sdk' }, audience: 'crm-api' }, 'action.operation'],
    [DispenseMandateDto, { actor: 'a', intent_id: 'c', audience: 'x', requested_scope: { resources: ['a'] } }, 'requested_scope.operations'],
    [CreateIntentionDto, { label: 'crm.lookup', intent_class: 'lookup', data_elements: [{ data_source_id: 'crm' }] }, 'data_elements[0].path'],
    [
      InstallIntentCardDto,
      { name: 'CRM', allowed_scope: { operations: ['a'], resources: ['b'] }, audiences: ['x'], rules: [{ id: 'r1', decision: { kind: 'allow' } }] },
      'rules[0].when',
    ],
  ] as const)('a nested required field left out is named by its full path (%p → %s)', async (metatype, body, path) => {
    const err = await refusal(metatype, body);
    expect(err.message).toBe(`${path} is required`);
    expect(detailsOf(err)[0]).toEqual({ path, message: `${path} is required` });
  });

  it('a present but bad value keeps the message of its rule (null, wrong type, too long, empty), never a "required"', async () => {
    const base = { actor: 'agent:a', intent_id: 'crm', requested_scope: { operations: ['crm.read'], resources: ['crm://a'] }, audience: 'crm-api' };
    for (const [patch, path] of [
      [{ actor: 5 }, 'actor'],
      [{ actor: null }, 'actor'],
      [{ actor: '' }, 'actor'],
      [{ prompt_id: 'p'.repeat(257) }, 'prompt_id'],
      [{ requested_scope: 'crm.read' }, 'requested_scope'],
    ] as const) {
      const details = detailsOf(await refusal(DispenseMandateDto, { ...base, ...patch }));
      expect(details[0]!.path).toBe(path);
      expect(details.every((d) => !d.message.endsWith('is required'))).toBe(true);
    }
  });

  it('prompt_id is optional at dispense (DESIGN 6.8): left out or null, the body is valid', async () => {
    const base = { actor: 'agent:a', intent_id: 'crm', requested_scope: { operations: ['crm.read'], resources: ['crm://a'] }, audience: 'crm-api' };
    await expect(pipe.transform(base, { type: 'body', metatype: DispenseMandateDto })).resolves.toMatchObject(base);
    await expect(pipe.transform({ ...base, prompt_id: null }, { type: 'body', metatype: DispenseMandateDto })).resolves.toMatchObject({ prompt_id: null });
  });

  it('requested_scope needs only operations (DESIGN 6.8): resources and forbidden_operations may be left out or empty', async () => {
    const base = { actor: 'agent:a', intent_id: 'crm', audience: 'crm-api' };
    for (const requested_scope of [
      { operations: ['x'] },
      { operations: ['x'], resources: [] },
      { operations: ['x'], resources: [], forbidden_operations: [] },
    ]) {
      const body = { ...base, requested_scope };
      await expect(pipe.transform(body, { type: 'body', metatype: DispenseMandateDto })).resolves.toEqual(body);
    }
    const empty = await refusal(DispenseMandateDto, { ...base, requested_scope: { operations: [] } });
    expect(detailsOf(empty)).toEqual([{ path: 'requested_scope.operations', message: 'requested_scope.operations must name at least one pattern' }]);
    const notList = await refusal(DispenseMandateDto, { ...base, requested_scope: { operations: ['x'], resources: 'crm://a' } });
    expect(detailsOf(notList)).toContainEqual({ path: 'requested_scope.resources', message: 'requested_scope.resources must be a list of patterns' });
  });

  it('names unknown fields and never echoes a value in any message', async () => {
    const secret = 'sk-live-do-not-echo';
    const err = await refusal(DispenseMandateDto, {
      actor: { secret },
      intent_id: 'c',
      audience: 'x',
      requested_scope: { operations: [secret], resources: 7 },
      [secret]: 1,
    });
    expect(detailsOf(err).map((d) => d.path)).toEqual(expect.arrayContaining(['actor', 'requested_scope.resources', secret]));
    expect(detailsOf(err).find((d) => d.path === secret)).toEqual({ path: secret, message: `${secret} is not a known field` });
    const messages = detailsOf(err)
      .filter((d) => d.path !== secret)
      .map((d) => d.message);
    expect(JSON.stringify(messages)).not.toContain(secret);
  });
});

describe('flattenValidationErrors', () => {
  const error = (property: string, value: unknown, constraints: Record<string, string> | undefined, children: ValidationError[] = []): ValidationError => ({
    property,
    value,
    ...(constraints ? { constraints } : {}),
    children,
  });

  it('an undefined value is "required" once, whatever rules tripped; an unknown field is "not a known field"', () => {
    expect(
      flattenValidationErrors([
        error('name', undefined, { isString: 'name must be a string', maxLength: 'name must be shorter than or equal to 256 characters' }),
      ]),
    ).toEqual([{ path: 'name', message: 'name is required' }]);
    expect(flattenValidationErrors([error('extra', 1, { whitelistValidation: 'property extra should not exist' })])).toEqual([
      { path: 'extra', message: 'extra is not a known field' },
    ]);
  });

  it('builds paths through objects and arrays, and rewrites the property in rule messages', () => {
    const nested = error('scope', {}, undefined, [error('operations', [1], undefined, [error('0', 1, { isString: 'each value in 0 must be a string' })])]);
    expect(flattenValidationErrors([nested])).toEqual([{ path: 'scope.operations[0]', message: 'each value in scope.operations[0] must be a string' }]);
    expect(flattenValidationErrors([error('scope', {}, undefined, [error('name', undefined, { isString: 'x' })])])).toEqual([
      { path: 'scope.name', message: 'scope.name is required' },
    ]);
  });
});
