import { applyDecorators, type Type } from '@nestjs/common';
import { ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ErrorDto } from '@igw/contracts';

type Decorator = MethodDecorator & ClassDecorator;

/**
 * applyDecorators applies its arguments first to last, while decorators stacked on a method apply
 * bottom-up; reversing keeps the OpenAPI document in the order the stacked form had.
 */
const stacked = (...decorators: Decorator[]) => applyDecorators(...decorators.reverse());

/** A route's documented error answers, by status: one ErrorDto response each. */
export function ApiErrors(errors: Record<number, string>) {
  return stacked(...Object.entries(errors).map(([status, description]) => ApiResponse({ status: Number(status), type: ErrorDto, description })));
}

/** A keyset-paged list route (DESIGN 6.12): `limit` and `cursor`, the page it answers, and 400 naming a bad parameter. */
export function ApiPagedList(page: Type<unknown>, defaultLimit: number) {
  return stacked(
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: defaultLimit } }),
    ApiQuery({ name: 'cursor', required: false, type: String, description: '`next_cursor` of the previous page.' }),
    ApiResponse({ status: 200, type: page }),
    ApiResponse({ status: 400, type: ErrorDto, description: 'invalid_request (names the parameter)' }),
  );
}

/** A list filtered by `status`, paged by `limit` (default 50) and `cursor`, and the page it answers. */
export function ApiStatusPage(statuses: readonly string[], page: Type<unknown>) {
  return stacked(
    ApiQuery({ name: 'status', required: false, enum: statuses }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } }),
    ApiQuery({ name: 'cursor', required: false, type: String }),
    ApiResponse({ status: 200, type: page }),
  );
}
