import { Body, Controller, Get, Module, Param, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import pino from 'pino';
import { ApiErrors, ApiOp } from './api-docs';
import { PlatformAdminOnly, Public, RequireScope } from './caller';
import { createHttpApp } from './http-app';
import { createOpenApiDocument } from './openapi-document';

class ThingBody {
  @IsString() name!: string;
}

@ApiTags('intentions')
@Controller(['t/things', 't/items'])
class ThingsController {
  @Post()
  @RequireScope('policy_write')
  @ApiOp({ id: ['createThing', 'createItem'], summary: 'Create.', description: 'Creates one.' })
  @ApiResponse({ status: 201, description: 'Created.' })
  @ApiErrors({ 403: { code: 'owner_only', message: 'only its owner may' }, 409: { code: 'name_conflict', message: 'taken' } })
  create(@Body() body: ThingBody) {
    return body;
  }

  @Get(':id')
  @ApiOp({ id: ['getThing', 'getItem'], summary: 'One.', description: 'Reads one.' })
  @ApiResponse({ status: 200, description: 'It.' })
  @ApiResponse({ status: 503, description: 'A report, not an error.', schema: { type: 'object' } })
  get(@Param('id') id: string) {
    return { id };
  }
}

@ApiTags('health')
@Controller('t/open')
class OpenController {
  @Public()
  @Get()
  @ApiOp({ id: 'readOpen', summary: 'Open.', description: 'No key.' })
  @ApiResponse({ status: 200, description: 'It.' })
  open() {
    return {};
  }

  @PlatformAdminOnly()
  @Post('admin')
  @ApiOp({ id: 'adminThing', summary: 'Admin.', description: 'Platform key.' })
  @ApiResponse({ status: 201, description: 'Done.' })
  admin(@Body() body: ThingBody) {
    return body;
  }

  @Get('undocumented')
  undocumented() {
    return {};
  }
}

@Module({ controllers: [ThingsController, OpenController] })
class DocModule {}

describe('createOpenApiDocument', () => {
  let app: NestFastifyApplication;
  let doc: ReturnType<typeof createOpenApiDocument>;
  beforeAll(async () => {
    app = await createHttpApp(DocModule, { name: 'doc-test', logger: pino({ level: 'silent' }), accessLog: false });
    await app.init();
    doc = createOpenApiDocument(app, { title: 'T', version: '1' });
  });
  afterAll(() => app.close());

  const exampleOf = (answer: unknown) => (answer as { content: { 'application/json': { example: unknown } } }).content['application/json'].example;
  const op = (path: string, method: 'get' | 'post') => {
    const found = doc.paths[path]?.[method];
    if (!found) throw new Error(`${method} ${path} is not in the document`);
    return found;
  };

  it('gives each path of an aliased route its own ApiOp id, and keeps the generated name where ApiOp is missing', () => {
    expect([op('/t/things', 'post').operationId, op('/t/items', 'post').operationId]).toEqual(['createThing', 'createItem']);
    expect([op('/t/things/{id}', 'get').operationId, op('/t/items/{id}', 'get').operationId]).toEqual(['getThing', 'getItem']);
    expect(op('/t/open/undocumented', 'get').operationId).toBe('OpenController_undocumented');
  });

  it('documents what the edge answers for an API-key route with a body and a scope', () => {
    const create = op('/t/things', 'post');
    expect(create.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(create.responses)).toEqual(['201', '400', '401', '403', '409', '413', '415', '429', '503']);
    // The route's own 403 keeps its refusal, and the edge's is merged in beside it.
    const forbidden = create.responses['403'] as { description: string; content: { 'application/json': { examples: Record<string, { value: unknown }> } } };
    expect(Object.values(forbidden.content['application/json'].examples).map((e) => e.value)).toEqual([
      { code: 'owner_only', message: 'only its owner may' },
      { code: 'insufficient_scope', message: 'this operation needs an API key with scope policy_write or admin' },
    ]);
    expect(forbidden.description).toBe(
      '`owner_only`: only its owner may; `insufficient_scope`: this operation needs an API key with scope policy_write or admin',
    );
    const created = create.responses['201'] as { headers: Record<string, unknown> };
    expect(Object.keys(created.headers)).toEqual(['RateLimit', 'RateLimit-Policy']);
    const limited = create.responses['429'] as { headers: Record<string, unknown> };
    expect(Object.keys(limited.headers)).toEqual(['Retry-After', 'RateLimit', 'RateLimit-Policy']);
  });

  it('a read-only route has no 403 and no body answers; the route’s own errors are kept', () => {
    const get = op('/t/things/{id}', 'get');
    expect(Object.keys(get.responses)).toEqual(['200', '401', '429', '503']);
    // A route's answer that is not an error body is left as it is.
    expect(get.responses['503']).toEqual({ description: 'A report, not an error.', content: { 'application/json': { schema: { type: 'object' } } } });
    expect(exampleOf(op('/t/things', 'post').responses['409'])).toEqual({ code: 'name_conflict', message: 'taken' });
  });

  it('a @Public() route needs no security; a platform-admin one needs the platform admin key', () => {
    const open = op('/t/open', 'get');
    expect(open.security).toEqual([]);
    expect(Object.keys(open.responses)).toEqual(['200']);
    const admin = op('/t/open/admin', 'post');
    expect(admin.security).toEqual([{ platformAdminKey: [] }]);
    expect(Object.keys(admin.responses)).toEqual(['201', '400', '401', '403', '413', '415', '503']);
  });

  it('declares only the tags its routes use, each with a description', () => {
    expect(doc.tags).toEqual([expect.objectContaining({ name: 'intentions' }), expect.objectContaining({ name: 'health' })]);
    expect(doc.tags?.every((t) => (t.description ?? '').length > 20)).toBe(true);
  });
});
