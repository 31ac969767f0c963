import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { DependencyUnavailableError } from '@igw/kernel';
import { InternalServiceResponseError, type InternalServiceClient } from './internal-service.client';

/**
 * GET `path` on an internal route for the org (as `keyId`, read_only) and validate the 200 body
 * as `type`, like an event payload: what feeds a read model is never trusted unchecked. A body
 * that does not match is an outage (DependencyUnavailableError, 503); another status below 500
 * is InternalServiceResponseError (a bug, 500); unreachable, timeout or 5xx → 503.
 */
export async function getValidated<T extends object>(
  http: InternalServiceClient,
  type: new () => T,
  path: string,
  caller: { orgId: string; keyId: string },
): Promise<T> {
  const route = path.split('?')[0];
  const res = await http.request('GET', path, { orgId: caller.orgId, keyId: caller.keyId, scope: 'read_only' });
  if (res.status !== 200) throw InternalServiceResponseError.of(http.service, `GET ${route}`, res);
  return validatedBody(http.service, type, `GET ${route}`, res.body);
}

/** A 200 body of `request` validated as `type`; one that does not match is an outage (DependencyUnavailableError, 503). */
export function validatedBody<T extends object>(service: string, type: new () => T, request: string, body: unknown): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new DependencyUnavailableError(service, new Error(`${request} answered a body that is not an object`));
  }
  const dto = plainToInstance(type, body);
  const [first] = validateSync(dto, { forbidUnknownValues: true });
  if (first) throw new DependencyUnavailableError(service, new Error(`${request} answered an invalid body: ${firstViolation(first)}`));
  return dto;
}

/** `intentions.1.status must be one of …`: the first leaf of a nested validation error. */
function firstViolation(error: ValidationError, parent = ''): string {
  const child = error.children?.[0];
  if (child) return firstViolation(child, `${parent}${error.property}.`);
  // The constraint's message starts with the property's own name.
  return `${parent}${Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`}`;
}
