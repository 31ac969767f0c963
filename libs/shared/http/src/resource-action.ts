import { applyDecorators, Get, HttpCode, Post, type Type } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { Scope } from '@igw/kernel';
import { ApiNotFound } from './api-docs';
import { RequireScope } from './caller';

const withExample = (example: unknown) => (example === undefined ? {} : { example });

/**
 * `POST :id/<action>`: a state change of one resource (publish, approve, enable…) that answers
 * 200 with the resource (`example` in the document), where a POST would default to 201; for
 * `scope` when given, otherwise under the controller's own rule.
 */
export function ResourceAction(action: string, answer: Type<unknown>, scope?: Scope, example?: unknown) {
  const decorators = [
    Post(`:id/${action}`),
    HttpCode(200),
    ...(scope ? [RequireScope(scope)] : []),
    ApiResponse({ status: 200, type: answer, description: `The resource after ${action}.`, ...withExample(example) }),
  ];
  // Applied as if stacked in this order on the method (bottom-up), as the routes were written before.
  return applyDecorators(...decorators.reverse());
}

/** `GET :id`: one resource of the caller's org, 404 not_found (`<what> not found`) when it has none by that id. */
export function ResourceRead(answer: Type<unknown>, example?: unknown, what = 'resource') {
  // Reversed for the same reason as above.
  return applyDecorators(
    ...[Get(':id'), ApiResponse({ status: 200, type: answer, description: 'The resource.', ...withExample(example) }), ApiNotFound(what)].reverse(),
  );
}
