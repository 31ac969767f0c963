import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { invalidRequest, type ErrorDetail } from '@igw/kernel';

function flatten(errors: ValidationError[], parent = ''): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  for (const e of errors) {
    const path = parent ? (/^\d+$/.test(e.property) ? `${parent}[${e.property}]` : `${parent}.${e.property}`) : e.property;
    for (const [rule, message] of Object.entries(e.constraints ?? {})) {
      out.push({ path, message: rule === 'whitelistValidation' ? `${path} is not a known field` : message.replace(e.property, path) });
    }
    out.push(...flatten(e.children ?? [], path));
  }
  return out;
}

/** 400 `invalid_request` naming the offending field(s); unknown fields are rejected. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      return invalidRequest(details[0]?.message ?? 'request body is invalid', details);
    },
  });
}
