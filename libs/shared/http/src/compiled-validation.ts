import Ajv, { type ValidateFunction } from 'ajv';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Schema = Record<string, unknown>;
type Dto = new (...args: never[]) => object;

/** Thrown inside the translation when a DTO uses something without an exact JSON Schema twin. */
class Untranslatable extends Error {}

/**
 * class-validator rules with a JSON Schema twin that accepts nothing the rule refuses. Where the
 * two differ, the schema is the stricter (a string's length: JSON Schema counts code points,
 * class-validator also drops variation selectors, so a `maxLength` here refuses first). A body
 * the schema refuses goes to class-validator, which accepts it or names the field: the schema
 * decides only "surely valid".
 */
const RULES: Record<string, (constraints: unknown[]) => Schema> = {
  isString: () => ({ type: 'string' }),
  isBoolean: () => ({ type: 'boolean' }),
  isInt: () => ({ type: 'integer' }),
  isObject: () => ({ type: 'object' }),
  isArray: () => ({ type: 'array' }),
  isNotEmpty: () => ({ not: { enum: ['', null] } }),
  isDefined: () => ({ not: { type: 'null' } }),
  maxLength: ([max]) => ({ type: 'string', maxLength: Number(max) }),
  min: ([min]) => ({ type: 'number', minimum: Number(min) }),
  max: ([max]) => ({ type: 'number', maximum: Number(max) }),
  arrayMaxSize: ([max]) => ({ type: 'array', maxItems: Number(max) }),
  arrayMinSize: ([min]) => ({ type: 'array', minItems: Number(min) }),
  isIn: ([values]) => {
    if (!Array.isArray(values) || !values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) throw new Untranslatable('isIn');
    return { enum: values };
  },
};

/**
 * The JSON Schema of a body DTO, read from its class-validator and class-transformer metadata,
 * as the global pipe validates it (whitelist, forbidNonWhitelisted, no implicit conversion): only
 * the properties that carry a rule, every one required unless @IsOptional. Null when the DTO
 * uses anything this translation does not know (a custom validator, @ValidateIf, groups,
 * @Transform…): such a DTO is always validated by class-validator.
 */
export function bodySchemaOf(dto: Dto): Schema | null {
  try {
    return classSchema(dto, new Set());
  } catch (err) {
    if (err instanceof Untranslatable) return null;
    throw err;
  }
}

function classSchema(dto: Dto, seen: Set<Dto>): Schema {
  if (seen.has(dto)) throw new Untranslatable('recursive');
  const inner = new Set(seen).add(dto);
  const metas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  // A class without rules is refused by forbidUnknownValues whatever it is given.
  if (metas.length === 0) throw new Untranslatable('no rules');
  // Field initialisers are defaults class-transformer would fill in: the parsed body has none.
  if (Object.values(new dto()).some((v) => v !== undefined)) throw new Untranslatable('defaults');
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of metas) byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [property, rules] of byProperty) {
    if (defaultMetadataStorage.findTransformMetadatas(dto, property, 0).length > 0 || defaultMetadataStorage.findExposeMetadata(dto, property)) {
      throw new Untranslatable('transform');
    }
    const { schema, optional } = propertySchema(dto, property, rules, inner);
    properties[property] = schema;
    if (!optional) required.push(property);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function propertySchema(dto: Dto, property: string, rules: ValidationMetadata[], seen: Set<Dto>): { schema: Schema; optional: boolean } {
  const whole: Schema[] = [];
  const each: Schema[] = [];
  let optional = false;
  let constrained = false;
  for (const rule of rules) {
    if (rule.groups?.length || rule.always) throw new Untranslatable('groups');
    if (rule.type === ValidationTypes.WHITELIST) continue;
    if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      if (rule.name !== 'isOptional') throw new Untranslatable('validateIf');
      optional = true;
      continue;
    }
    constrained = true;
    const target = rule.each ? each : whole;
    if (rule.each) whole.push({ type: 'array' });
    if (rule.type === ValidationTypes.IS_DEFINED) {
      whole.push({ not: { type: 'null' } });
    } else if (rule.type === ValidationTypes.NESTED_VALIDATION) {
      const type = defaultMetadataStorage.findTypeMetadata(dto, property)?.typeFunction() as Dto | undefined;
      if (typeof type !== 'function') throw new Untranslatable('nested without @Type');
      target.push(classSchema(type, seen));
    } else {
      const translate = rule.type === ValidationTypes.CUSTOM_VALIDATION && rule.name && Object.hasOwn(RULES, rule.name) ? RULES[rule.name] : undefined;
      if (!translate) throw new Untranslatable(rule.name ?? rule.type);
      target.push(translate(rule.constraints ?? []));
    }
  }
  if (each.length > 0) whole.push({ items: { allOf: each } });
  // Only @Allow: any value, present or not.
  if (!constrained) return { schema: {}, optional: true };
  return { schema: { allOf: whole }, optional };
}

/** One compiler for the process: schemas are compiled once per DTO, on first use. */
const ajv = new Ajv({ allErrors: false, coerceTypes: false, useDefaults: false, removeAdditional: false, strict: false });
const compiled = new Map<Dto, ValidateFunction | null>();

/** The compiled "surely valid" check of a body DTO, or null when it has none (class-validator decides). */
export function compiledBodyCheck(dto: Dto): ValidateFunction | null {
  let check = compiled.get(dto);
  if (check === undefined) {
    const schema = bodySchemaOf(dto);
    check = schema ? ajv.compile(schema) : null;
    compiled.set(dto, check);
  }
  return check;
}
