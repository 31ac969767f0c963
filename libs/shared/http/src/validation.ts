import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { compiledBodyCheck } from './compiled-validation';
import { invalidRequest, type ErrorDetail } from '@igw/kernel';

const WHITELIST = 'whitelistValidation';

const childPath = (parent: string, property: string) => (parent ? (/^\d+$/.test(property) ? `${parent}[${property}]` : `${parent}.${property}`) : property);

/**
 * The details of one failed field. A field left out (undefined: JSON has no undefined, so the
 * body did not name it) answers `<path> is required` and nothing else, whichever rule tripped
 * first: "must be a string" or a length limit would send the client looking for a bad value
 * when there is none. An unknown field is named as such. Every other message is the rule's own,
 * with the property replaced by its full path; values are never echoed.
 */
function detailsOf(e: ValidationError, path: string): ErrorDetail[] {
  const constraints = e.constraints ?? {};
  const rules = Object.keys(constraints);
  if (rules.length === 0) return [];
  if (e.value === undefined && !rules.includes(WHITELIST)) return [{ path, message: `${path} is required` }];
  return rules.map((rule) => ({ path, message: rule === WHITELIST ? `${path} is not a known field` : (constraints[rule] ?? '').replace(e.property, path) }));
}

/** Every failed field, depth first, in declaration order (so the first detail is the first field). */
export function flattenValidationErrors(errors: readonly ValidationError[], parent = ''): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  for (const e of errors) {
    const path = childPath(parent, e.property);
    out.push(...detailsOf(e, path));
    out.push(...flattenValidationErrors(e.children ?? [], path));
  }
  return out;
}

/**
 * 400 `invalid_request` naming the offending field(s); unknown fields are rejected. The errors
 * carry the offending values (`value: true`) only so that an absent field can be told from a bad
 * one; they go no further than flattenValidationErrors, which never copies a value into a message.
 */
export function createValidationPipe(): ValidationPipe {
  return new CompiledValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => {
      const details = flattenValidationErrors(errors);
      return invalidRequest(details[0]?.message ?? 'request body is invalid', details);
    },
  });
}

/**
 * The global pipe, with a compiled fast path for bodies (DTO metadata → JSON Schema → Ajv, once
 * per DTO): a body the compiled schema accepts is valid as class-validator would find it and goes
 * on as parsed, without class-transformer and class-validator on every request. Any other body —
 * invalid, or of a DTO without a schema twin — goes through class-validator as before, so the
 * 400 and its details are class-validator's own.
 */
class CompiledValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && typeof metadata.metatype === 'function' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const check = compiledBodyCheck(metadata.metatype as new () => object);
      if (check?.(value)) return value;
    }
    return super.transform(value, metadata);
  }
}
