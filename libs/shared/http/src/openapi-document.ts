import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

type OperationObject = OpenAPIObject['paths'][string]['get'] & object;
type ResponsesObject = OperationObject['responses'];
type ResponseObject = Extract<ResponsesObject[string], { description: string }>;
import type { FastifyInstance } from 'fastify';
import { operationEdge, operationIdFor, refusalExamples, refusalsDescription, type Refusal } from './api-docs';

export interface OpenApiOptions {
  title: string;
  version: string;
  description?: string;
  /** Base URLs of services whose own /v1/openapi.json is merged in (distributed gateway). */
  mergeFrom?: string[];
}

/** The document's introduction (both modes): what a reader needs before the first call. */
export const GATEWAY_API_DESCRIPTION = [
  "Intent Gateway decides whether an AI agent's tool call may proceed, and under what conditions. It has two enforcement paths:",
  '',
  '1. **Intent evaluation.** Publish *intentions* (what agents may set out to do), then send each tool call to `POST /v1/intent/evaluate`. The answer is `allow` with a short-lived grant, `deny`, or `approval` (a person decides in `/v1/approvals`).',
  '2. **Mandates.** Bind an intention to an *intent card* (scope, audiences, TTL, rules), dispense a signed mandate with `POST /v1/mandate/dispense`, and have each call decided by `POST /v1/mcp-proxy/call` with it in `X-Service-Mandate`: the decision engine answers one of 12 kinds. To have allowed calls forwarded as well, point an MCP client at the enforcement proxy, `/mcp/{server name}` (Streamable HTTP), which decides every `tools/call` the same way.',
  '',
  '**Authentication.** `Authorization: Bearer <API key>`. A key has one scope: `read_only` reads, `policy_write` also changes policy and dispenses, `admin` also manages keys and webhooks. Authentication comes first: a wrong key is a 401 whatever the body (only what cannot be read at all is refused before it: a body over 256 KiB, 413, or a malformed Content-Type or Content-Length header).',
  '',
  "**Errors** are JSON `{code, message}`, with `details[]` naming each offending field (`path`, `message`) when there are several. Another org's id is a 404, as an unknown one is.",
  '',
  '**Lists** are keyset-paged: pass `next_cursor` as `cursor` until it is null.',
  '',
  '**Rate limits** are per key: a sustained rate per second and a burst pool, announced in `RateLimit-Policy` and counted down in `RateLimit` on every answer; a 429 carries `Retry-After`.',
  '',
  '**Failing closed.** When a decision cannot be made (a store or a dependency is down) the answer is 503 `unavailable`, never an allow.',
].join('\n');

/** One description per tag, in the order a reader meets them (both modes, every service's document). */
export const API_TAGS: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'intentions',
    description: 'What agents may set out to do. An intention (also served as a purpose) is drafted, published to take effect, and archived.',
  },
  {
    name: 'intent',
    description:
      'The first enforcement path: a tool call evaluated against the published intentions, answered allow, deny or approval, with a grant when allowed.',
  },
  { name: 'grants', description: 'Grants are short-lived tokens an evaluation answers with; a tool server verifies one before acting.' },
  { name: 'replays', description: "What-if replay: the org's recent calls decided again against a draft, before it is published; nothing is recorded." },
  { name: 'intent-cards', description: 'Intent cards bind an intention to the scope, audiences, TTL and rules a mandate may carry.' },
  {
    name: 'mandates',
    description: 'The second enforcement path: signed mandates dispensed against an intent card, refreshed, revoked, and verified with the JWKS.',
  },
  {
    name: 'mcp-proxy',
    description:
      'Tool calls made with a mandate, decided by the 12-kind decision engine and recorded; the decisions and the review queue. (Forwarding to the MCP server is the enforcement proxy at /mcp/{server name}.)',
  },
  { name: 'mcp-servers', description: 'The upstream MCP servers the enforcement proxy (/mcp/{server name}) forwards allowed calls to.' },
  { name: 'approvals', description: 'Calls that need a person: listed, approved or denied by a second key (never the one that asked).' },
  { name: 'webhooks', description: 'Signed event deliveries (Standard Webhooks) to your endpoints, with their delivery history.' },
  { name: 'api-keys', description: 'API keys of your org, each with a scope: read_only, policy_write or admin. A key is shown once.' },
  { name: 'orgs', description: 'Orgs and their rate limits, managed with the platform admin key.' },
  {
    name: 'stats',
    description: "Your org's traffic at a glance (the console overview): counts per time bucket, the approval backlog, what is refused and used.",
  },
  { name: 'health', description: 'Mode, version and the state of every dependency.' },
];

const ERROR_SCHEMA = { $ref: '#/components/schemas/ErrorDto' };
const RATE_LIMIT_HEADERS = { RateLimit: { $ref: '#/components/headers/RateLimit' }, 'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' } };

/** The 400 any route with a body answers for one that is not JSON (merged into a route's own 400). */
export const NOT_JSON_REFUSAL: Refusal = { code: 'invalid_request', message: 'request body is not valid JSON: syntax error at byte 17' };

/** The answers the edge itself gives, whatever the route: authentication, rate limit, body parsing, outages. */
const EDGE_REFUSALS: Record<string, Refusal[]> = {
  body400: [NOT_JSON_REFUSAL],
  apiKey401: [
    { code: 'unauthenticated', message: 'missing Authorization: Bearer <API key>' },
    { code: 'unauthenticated', message: 'the API key is unknown or revoked' },
  ],
  admin401: [
    { code: 'unauthenticated', message: 'missing Authorization: Bearer <PLATFORM_ADMIN_KEY>' },
    { code: 'unauthenticated', message: 'this operation needs the platform admin key' },
  ],
  admin403: [{ code: 'insufficient_scope', message: 'org management is disabled: PLATFORM_ADMIN_KEY is not configured' }],
  413: [{ code: 'payload_too_large', message: 'request body exceeds 256 KiB' }],
  415: [{ code: 'unsupported_media_type', message: 'the request body must be JSON: send it with Content-Type: application/json' }],
  429: [{ code: 'rate_limited', message: 'rate limit of 100 requests per second (burst 200) exceeded for this key' }],
  503: [{ code: 'unavailable', message: 'database is unavailable; retry later' }],
};

function errorAnswer(list: Refusal[], headers?: Record<string, unknown>): ResponseObject {
  const [only] = list;
  const media = list.length === 1 && only ? { schema: ERROR_SCHEMA, example: only } : { schema: ERROR_SCHEMA, examples: refusalExamples(list) };
  return { description: refusalsDescription(list), ...(headers ? { headers } : {}), content: { 'application/json': media } } as ResponseObject;
}

type ErrorMedia = { schema?: { $ref?: string; oneOf?: { $ref?: string }[] }; example?: unknown; examples?: Record<string, { value?: unknown }> };

/** Whether an answer's body is an error model ({code, message}, or a subtype such as MandateViolationErrorDto). */
const isErrorBody = (media: ErrorMedia) => [media.schema, ...(media.schema?.oneOf ?? [])].some((s) => s?.$ref?.endsWith('ErrorDto') === true);

/**
 * Merges the edge's refusals for a status into the route's own answer for it: the missing ones
 * become more examples (and the description names them), its headers are added. A route whose
 * answer for that status is not an error body (health's 503 is the health report) is left alone.
 */
function mergeRefusals(answer: ResponseObject, list: Refusal[], headers?: Record<string, unknown>): void {
  const media = answer.content?.['application/json'] as ErrorMedia | undefined;
  if (!media || !isErrorBody(media)) return;
  if (headers) answer.headers = { ...(headers as ResponseObject['headers']), ...(answer.headers ?? {}) };
  const own = media.examples ?? (media.example === undefined ? {} : { [(media.example as Refusal).code]: { value: media.example } });
  const shown = Object.values(own).map((e) => e.value as Partial<Refusal>);
  const missing = list.filter((r) => !shown.some((v) => v.code === r.code && v.message === r.message));
  if (missing.length === 0) return;
  delete media.example;
  media.examples = { ...own, ...refusalExamples(missing, Object.keys(own)) };
  answer.description = `${answer.description.replace(/\.$/, '')}; ${refusalsDescription(missing)}`;
}

/**
 * Adds to every operation what the edge answers before or around its handler (the CallerGuard,
 * the rate limiter, the body parser, the error mapping): the security it needs, 401, 403 for a
 * scope, 429 with its headers, 400/413/415 for a body, 503 for an outage; and the RateLimit
 * headers on the answers of API-key routes. Where a route documents a status itself, the edge's
 * refusals for it are merged in (mergeRefusals): a route lists only what its handler refuses.
 */
export function describeEdge(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const op = item[method] as OperationObject | undefined;
      if (!op?.operationId) continue;
      const edge = operationEdge(op.operationId);
      const add = (status: number, list: Refusal[] = [], headers?: Record<string, unknown>) => {
        const own = op.responses[status];
        if (own === undefined) op.responses[status] = errorAnswer(list, headers);
        else if (!('$ref' in own)) mergeRefusals(own, list, headers);
      };
      if (op.requestBody) {
        add(400, EDGE_REFUSALS.body400);
        add(413, EDGE_REFUSALS[413]);
        add(415, EDGE_REFUSALS[415]);
      }
      // The scope in machine-readable form (the generated reference and clients read it).
      (op as Record<string, unknown>)['x-required-scope'] = edge.auth === 'api-key' ? (edge.scope ?? 'read_only') : null;
      if (edge.auth === 'none') {
        op.security = [];
      } else if (edge.auth === 'platform-admin') {
        op.security = [{ platformAdminKey: [] }];
        add(401, EDGE_REFUSALS.admin401);
        add(403, EDGE_REFUSALS.admin403);
        add(503, EDGE_REFUSALS[503]);
      } else {
        op.security = [{ apiKey: [] }];
        add(401, EDGE_REFUSALS.apiKey401);
        if (edge.scope && edge.scope !== 'read_only') {
          const needs = edge.scope === 'policy_write' ? 'policy_write or admin' : edge.scope;
          add(403, [{ code: 'insufficient_scope', message: `this operation needs an API key with scope ${needs}` }]);
        }
        add(429, EDGE_REFUSALS[429], { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...RATE_LIMIT_HEADERS });
        add(503, EDGE_REFUSALS[503]);
        for (const [status, answer] of Object.entries(op.responses)) {
          if (status.startsWith('2') && answer && !('$ref' in answer)) answer.headers = { ...RATE_LIMIT_HEADERS, ...(answer.headers ?? {}) };
        }
      }
      op.responses = sortedByStatus(op.responses);
    }
  }
  return document;
}

const sortedByStatus = (responses: ResponsesObject): ResponsesObject =>
  Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))) as ResponsesObject;

const HEADERS = {
  RateLimit: {
    description:
      'What is left of each policy of `RateLimit-Policy` for this key (IETF RateLimit fields): `"default";r=<requests left this second>;t=<seconds to reset>, "burst";r=<left in the burst pool>;t=<seconds to refill>`. The `burst` item is absent when the org has no pool (`q=0`) or its state could not be read.',
    schema: { type: 'string', example: '"default";r=87;t=1, "burst";r=100;t=10' },
  },
  'RateLimit-Policy': {
    description:
      "The org's limit per key: `default` is the sustained rate per second, `burst` the extra requests drawn per 10 s once a second's quota is spent.",
    schema: { type: 'string', example: '"default";q=100;w=1, "burst";q=100;w=10' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', example: 1 } },
};

/** The document of this process's routes: @nestjs/swagger's, with ApiOp's ids, the edge's answers and the tags. */
export function createOpenApiDocument(app: INestApplication, meta: OpenApiOptions): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(meta.title)
    .setVersion(meta.version)
    .setDescription(meta.description ?? '')
    .addServer('/', 'The gateway serving this document')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key of your org (`igw_…`), from POST /v1/orgs or POST /v1/api-keys.' }, 'apiKey')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The platform admin key (PLATFORM_ADMIN_KEY of the deployment).' }, 'platformAdminKey')
    .addSecurityRequirements('apiKey')
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: operationIdFor });
  describeEdge(document);
  // The API is proprietary: a license name, no URL (redocly.yaml turns info-license-strict off).
  document.info.license = { name: 'Proprietary' };
  document.components = { ...document.components, headers: HEADERS as never };
  const used = new Set(Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((op) => (op as OperationObject).tags ?? [])));
  document.tags = API_TAGS.filter((t) => used.has(t.name));
  return document;
}

export function setupOpenApi(app: INestApplication, meta: OpenApiOptions): OpenAPIObject {
  const document = createOpenApiDocument(app, meta);
  const sources = meta.mergeFrom ?? [];
  if (sources.length === 0) {
    SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'v1/openapi.json', ui: true });
    return document;
  }
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/gateway-openapi.json', swaggerOptions: { url: '/v1/openapi.json' }, ui: true });
  const merged = new MergedOpenApi(document, sources);
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  fastify.get('/v1/openapi.json', async (_req, reply) => reply.type('application/json').send(await merged.get()));
  return document;
}

/** The gateway's document plus each service's paths and schemas, refreshed at most every 30 s. */
class MergedOpenApi {
  private cached?: { at: number; doc: OpenAPIObject; complete: boolean };
  constructor(
    private readonly own: OpenAPIObject,
    private readonly sources: string[],
  ) {}

  async get(): Promise<OpenAPIObject> {
    if (this.cached && this.cached.complete && Date.now() - this.cached.at < 30_000) return this.cached.doc;
    const doc: OpenAPIObject = JSON.parse(JSON.stringify(this.own));
    let complete = true;
    for (const base of this.sources) {
      try {
        const res = await fetch(`${base}/v1/openapi.json`, { signal: AbortSignal.timeout(2000) });
        if (!res.ok) throw new Error(String(res.status));
        const remote = (await res.json()) as OpenAPIObject;
        Object.assign(doc.paths, remote.paths);
        doc.components = doc.components ?? {};
        doc.components.schemas = { ...(remote.components?.schemas ?? {}), ...(doc.components.schemas ?? {}) };
        const tags = new Set([...(doc.tags ?? []), ...(remote.tags ?? [])].map((t) => t.name));
        doc.tags = API_TAGS.filter((t) => tags.has(t.name));
      } catch {
        complete = false;
      }
    }
    this.cached = { at: Date.now(), doc, complete };
    return doc;
  }
}
