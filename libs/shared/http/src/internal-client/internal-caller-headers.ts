import type { Caller } from '@igw/kernel';
import { INTERNAL_HEADERS } from '../internal-caller.resolver';
import { injectTraceContext } from '../tracing';

/**
 * The headers a service behind the gateway trusts (see InternalCallerResolver): the shared token
 * plus the caller it vouches for, and the active trace context (W3C traceparent) when tracing is
 * on. One builder for the gateway's proxy and the service clients.
 */
export function internalCallerHeaders(internalToken: string, caller: Caller, requestId?: string): Record<string, string> {
  const headers: Record<string, string> = {
    [INTERNAL_HEADERS.token]: internalToken,
    [INTERNAL_HEADERS.org]: caller.orgId,
    [INTERNAL_HEADERS.key]: caller.keyId,
    [INTERNAL_HEADERS.scope]: caller.scope,
  };
  if (requestId) headers['x-request-id'] = requestId;
  injectTraceContext(headers);
  return headers;
}
