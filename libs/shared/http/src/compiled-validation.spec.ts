import { ValidationPipe } from '@nestjs/common';
import { IsEmail, IsInt, IsOptional, IsString, ValidateIf } from 'class-validator';
import * as contracts from '@igw/contracts';
import { EvaluateIntentRequestDto, McpProxyCallDto, VerifyGrantRequestDto } from '@igw/contracts';
import { bodySchemaOf, compiledBodyCheck } from './compiled-validation';
import { createValidationPipe } from './validation';

type Dto = new () => object;
type Schema = Record<string, unknown>;

/** class-validator alone, with the global pipe's options: the reference the compiled check must never out-accept. */
const reference = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
});
const accepts = (dto: Dto, body: unknown) =>
  reference.transform(body, { type: 'body', metatype: dto }).then(
    () => true,
    () => false,
  );

/** Every request DTO of the public contract: classes exported by @igw/contracts whose name ends in Dto. */
const DTOS = Object.entries(contracts).filter((e): e is [string, Dto] => typeof e[1] === 'function' && e[0].endsWith('Dto'));

const allOf = (s: Schema): Schema[] => (Array.isArray(s['allOf']) ? (s['allOf'] as Schema[]).flatMap(allOf) : [s]);
const facet = <T>(s: Schema, key: string): T | undefined => allOf(s).find((p) => p[key] !== undefined)?.[key] as T | undefined;

/** A value the schema accepts, as small as it can be (one item in arrays, the bounds' middle). */
function sample(s: Schema): unknown {
  const parts = allOf(s);
  const enumValues = facet<unknown[]>(s, 'enum');
  if (enumValues) return enumValues[0];
  const type = parts.map((p) => p['type']).find((t) => typeof t === 'string');
  if (type === 'object' && facet(s, 'properties')) {
    const props = facet<Record<string, Schema>>(s, 'properties') ?? {};
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sample(v)]));
  }
  if (type === 'object') return { a: 1 };
  if (type === 'array') return [sample(facet<Schema>(s, 'items') ?? {})];
  if (type === 'string') return 'x';
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') return facet<number>(s, 'minimum') ?? facet<number>(s, 'maximum') ?? 1;
  return 'x';
}

/** Values at and past each bound a property may have, and values of every other JSON type. */
function variants(s: Schema): unknown[] {
  const max = facet<number>(s, 'maxLength');
  const long = max === undefined ? [] : ['x'.repeat(max), 'x'.repeat(max + 1), '😀'.repeat(max), 'x'.repeat(max - 1) + '😀', 'é\uFE0F'.repeat(max)];
  const min = facet<number>(s, 'minimum');
  const maxN = facet<number>(s, 'maximum');
  const numbers = [min, maxN].flatMap((n) => (n === undefined ? [] : [n - 1, n, n + 1, n + 0.5]));
  const items = facet<Schema>(s, 'items');
  const arrays = items
    ? [
        [],
        [sample(items), sample(items)],
        [null],
        ...variants(items)
          .slice(0, 6)
          .map((v) => [v]),
      ]
    : [];
  return [null, '', ' ', 'x', 0, 1.5, -1, true, false, [], ['x'], {}, { a: 1 }, ...long, ...numbers, ...arrays];
}

/** The valid sample, then one property at a time: removed, replaced by each variant (nested objects too), plus an unknown field. */
function* bodies(s: Schema): Generator<unknown> {
  const base = sample(s) as Record<string, unknown>;
  yield base;
  yield { ...base, unknown_field: 1 };
  yield [base];
  const props = facet<Record<string, Schema>>(s, 'properties') ?? {};
  for (const [k, v] of Object.entries(props)) {
    const { [k]: _dropped, ...without } = base;
    yield without;
    for (const value of variants(v)) yield { ...base, [k]: value };
    if (facet(v, 'properties')) for (const nested of bodies(v)) yield { ...base, [k]: nested };
  }
}

describe('compiled body validation (DTO metadata → JSON Schema → Ajv)', () => {
  it('covers the hot routes: the mcp-proxy call, evaluate and grant verification bodies compile', () => {
    for (const dto of [McpProxyCallDto, EvaluateIntentRequestDto, VerifyGrantRequestDto]) expect(bodySchemaOf(dto)).not.toBeNull();
  });

  it('declines a DTO it cannot translate exactly (a rule without a twin, or no rules at all): class-validator decides', () => {
    class NoRules {}
    expect(bodySchemaOf(NoRules)).toBeNull();
    expect(compiledBodyCheck(NoRules)).toBeNull();
    // A field initialiser is a default class-transformer fills in; the parsed body would lack it.
    class WithDefault {
      @IsOptional() @IsInt() limit?: number = 50;
    }
    expect(bodySchemaOf(WithDefault)).toBeNull();
    class Conditional {
      @ValidateIf(() => true) @IsString() name!: string;
    }
    expect(bodySchemaOf(Conditional)).toBeNull();
    class Email {
      @IsEmail() email!: string;
    }
    expect(bodySchemaOf(Email)).toBeNull();
  });

  it.each(DTOS)('%s: accepts nothing class-validator refuses, and accepts its valid sample', async (_name, dto) => {
    const schema = bodySchemaOf(dto);
    if (!schema) return;
    const check = compiledBodyCheck(dto);
    let tried = 0;
    for (const body of bodies(schema)) {
      tried++;
      if (check?.(body)) expect({ body, classValidator: await accepts(dto, body) }).toEqual({ body, classValidator: true });
    }
    expect(check?.(sample(schema))).toBe(true);
    expect(await accepts(dto, sample(schema))).toBe(true);
    expect(tried).toBeGreaterThan(10);
  });

  it('the pipe hands a valid body on as parsed, and an invalid one gets class-validator’s own 400', async () => {
    const pipe = createValidationPipe();
    const body = { action: { surface: 'mcp', operation: 'crm.contacts.read', arguments: { id: 1 } }, audience: 'crm-api' };
    await expect(pipe.transform(body, { type: 'body', metatype: McpProxyCallDto })).resolves.toBe(body);
    await expect(pipe.transform({ ...body, audience: 'x'.repeat(257) }, { type: 'body', metatype: McpProxyCallDto })).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'audience must be shorter than or equal to 256 characters',
    });
  });
});
