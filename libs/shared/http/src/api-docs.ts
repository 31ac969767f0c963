import { applyDecorators, type Type } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ErrorDto } from '@igw/contracts';
import type { Scope } from '@igw/kernel';
import { PUBLIC_ROUTE, REQUIRED_SCOPE } from './caller';

type Decorator = MethodDecorator & ClassDecorator;

/**
 * applyDecorators applies its arguments first to last, while decorators stacked on a method apply
 * bottom-up; reversing keeps the OpenAPI document in the order the stacked form had.
 */
const stacked = (...decorators: Decorator[]) => applyDecorators(...decorators.reverse());

/** How an operation authenticates in the document: an API key unless the route is @Public(). */
export type OperationAuth = 'api-key' | 'platform-admin' | 'none';

export interface OperationDoc {
  /**
   * The stable operationId (camelCase verb first: `createIntention`). A route answering under
   * several paths (intentions and purposes) names one id per path, in the controller's order.
   */
  id: string | readonly string[];
  summary: string;
  /** What a caller needs to know beyond the summary: effects, idempotence, who may call it. */
  description: string;
}

/** The route's handler and controller: their @Public() and @RequireScope() are read when the document is built. */
interface RegisteredRoute {
  handler: object;
  controller: object;
}

/** `${controller class}.${method key as @nestjs/swagger names it}` → the operation id ApiOp gave it. */
const OPERATION_IDS = new Map<string, string>();
/** Operation id → its route. */
const ROUTES = new Map<string, RegisteredRoute>();

/**
 * Documents an operation: its stable id, summary, description and how it authenticates. The id
 * is given to @nestjs/swagger through `operationIdFor` (an ApiOperation `operationId` would be
 * repeated on every path of an aliased route).
 */
export function ApiOp(doc: OperationDoc): MethodDecorator {
  return (target, key, descriptor) => {
    const controller = (target as { constructor: { name: string } }).constructor.name;
    const ids = typeof doc.id === 'string' ? [doc.id] : doc.id;
    ids.forEach((id, i) => {
      OPERATION_IDS.set(`${controller}.${String(key)}${ids.length === 1 ? '' : `[${i}]`}`, id);
      ROUTES.set(id, { handler: descriptor.value as object, controller: target.constructor });
    });
    ApiOperation({ summary: doc.summary, description: doc.description })(target, key, descriptor);
  };
}

/** @nestjs/swagger's operationIdFactory: the id ApiOp registered, else Nest's generated name (the linter refuses it). */
export const operationIdFor = (controllerKey: string, methodKey: string): string =>
  OPERATION_IDS.get(`${controllerKey}.${methodKey}`) ?? `${controllerKey}_${methodKey}`;

/** What the edge needs to know of a documented operation: how it authenticates and the scope it needs. */
export function operationEdge(operationId: string): { auth: OperationAuth; scope?: Scope } {
  const route = ROUTES.get(operationId);
  if (!route) return { auth: 'api-key' };
  const targets = [route.handler, route.controller];
  const open = targets.map((t) => Reflect.getMetadata(PUBLIC_ROUTE, t) as true | 'platform-admin' | undefined).find((v) => v !== undefined);
  if (open === 'platform-admin') return { auth: 'platform-admin' };
  if (open === true) return { auth: 'none' };
  const scope = targets.map((t) => Reflect.getMetadata(REQUIRED_SCOPE, t) as Scope | undefined).find((s) => s !== undefined);
  return { auth: 'api-key', ...(scope ? { scope } : {}) };
}

/** One refusal a route may answer: its `code` and a message as the gateway words it. */
export interface Refusal {
  code: string;
  message: string;
}

/** A route's documented error answers, by status: one ErrorDto response each, with one example per refusal. */
export function ApiErrors(errors: Record<number, Refusal | readonly Refusal[]>) {
  return stacked(...Object.entries(errors).map(([status, given]) => errorResponse(Number(status), Array.isArray(given) ? given : [given as Refusal])));
}

/** The 404 of a route reading one resource: `<what> not found`, as foundOr404 and notFound word it. */
export const ApiNotFound = (what: string) => ApiErrors({ 404: { code: 'not_found', message: `${what} not found` } });

/** What an error answer's description says: each distinct refusal, `code`: message. */
export const refusalsDescription = (list: readonly Refusal[]): string => [...new Set(list.map((r) => `\`${r.code}\`: ${r.message}`))].join('; ');

/** Named examples of refusals: by code, a code met again numbered (code_2…), after the names already `taken`. */
export function refusalExamples(list: readonly Refusal[], taken: Iterable<string> = []): Record<string, { summary: string; value: Refusal }> {
  const names = new Set(taken);
  const examples: Record<string, { summary: string; value: Refusal }> = {};
  for (const r of list) {
    let name = r.code;
    for (let n = 2; names.has(name); n++) name = `${r.code}_${n}`;
    names.add(name);
    examples[name] = { summary: r.message, value: { code: r.code, message: r.message } };
  }
  return examples;
}

/** The ErrorDto response for `status`, its description listing the codes, with their examples. */
export function errorResponse(status: number, list: readonly Refusal[]) {
  const description = refusalsDescription(list);
  const [only] = list;
  if (list.length === 1 && only) return ApiResponse({ status, type: ErrorDto, description, example: { code: only.code, message: only.message } });
  return ApiResponse({ status, type: ErrorDto, description, examples: refusalExamples(list) });
}

/** A JSON request body of `type` with named examples (the first is the one a reader sees first). */
export function ApiJsonBody(type: Type<unknown>, examples: Record<string, { summary: string; value: unknown }>) {
  return ApiBody({ type, examples });
}

const PAGE_REFUSALS: readonly Refusal[] = [
  { code: 'invalid_request', message: 'limit must be an integer from 1 to 200' },
  { code: 'invalid_request', message: 'cursor is not a cursor this API returned' },
];

/** A keyset-paged list route (DESIGN 6.12): `limit` and `cursor`, the page it answers, and 400 naming a bad parameter. */
export function ApiPagedList(page: Type<unknown>, defaultLimit: number, example?: unknown) {
  return stacked(
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: defaultLimit } }),
    ApiQuery({ name: 'cursor', required: false, type: String, description: '`next_cursor` of the previous page.' }),
    ApiResponse({ status: 200, type: page, description: 'One page; `next_cursor` is null on the last.', ...(example === undefined ? {} : { example }) }),
    errorResponse(400, PAGE_REFUSALS),
  );
}

/** A list filtered by `status`, paged by `limit` (default 50) and `cursor`, and the page it answers. */
export function ApiStatusPage(statuses: readonly string[], page: Type<unknown>, example?: unknown) {
  return stacked(
    ApiQuery({ name: 'status', required: false, enum: statuses }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } }),
    ApiQuery({ name: 'cursor', required: false, type: String, description: '`next_cursor` of the previous page.' }),
    ApiResponse({ status: 200, type: page, description: 'One page; `next_cursor` is null on the last.', ...(example === undefined ? {} : { example }) }),
    errorResponse(400, [{ code: 'invalid_request', message: `status must be one of ${statuses.join(', ')}` }, ...PAGE_REFUSALS]),
  );
}
