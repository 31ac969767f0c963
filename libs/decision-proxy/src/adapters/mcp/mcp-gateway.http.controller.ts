import { Controller, Delete, Get, Headers, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentCaller } from '@igw/http';
import { AppError, invalidRequest, type Caller } from '@igw/kernel';
import { MCP_SERVER_NAME } from '../../domain';
import { OpenMcpUpstreamUseCase } from '../../application/use-cases/open-mcp-upstream.use-case';
import { attachMandate } from './mcp-proxy-session';
import { McpSessions } from './mcp-sessions';

const header = (v: string | string[] | undefined): string | undefined => {
  const value = Array.isArray(v) ? v[0] : v;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

const isInitialize = (body: unknown): boolean =>
  (Array.isArray(body) ? body : [body]).some((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize');

/**
 * `{base}/mcp/{name}` (DESIGN 6.13): MCP Streamable HTTP toward the agent, served by the official
 * SDK's transport of the caller's session. The API key (global guard) and the mandate, when sent,
 * are checked here first, so an auth failure is an HTTP `{code, message}` before any MCP traffic.
 */
@ApiExcludeController()
@Controller('mcp')
export class McpGatewayHttpController {
  constructor(
    private readonly sessions: McpSessions,
    private readonly upstreams: OpenMcpUpstreamUseCase,
  ) {}

  @Post(':name')
  async post(
    @CurrentCaller() caller: Caller,
    @Param('name') name: string,
    @Headers('mcp-session-id') sessionId: string | undefined,
    @Headers('x-service-mandate') mandate: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (!MCP_SERVER_NAME.test(name)) throw invalidRequest('name must be an MCP server name (^[a-z0-9][a-z0-9_-]{0,62}$)');
    const token = header(mandate);
    const id = header(sessionId);
    if (id === undefined) {
      if (!isInitialize(req.body)) throw invalidRequest('mcp-session-id header is required (open a session with initialize first)');
      const refusal = this.sessions.refusal(caller.orgId);
      if (refusal !== null) throw new AppError('rate_limited', 'rate_limited', refusal);
      const { upstream, mandate } = await this.upstreams.execute(caller, name, token);
      const session = await this.sessions.open(caller, mandate !== null, upstream);
      attachMandate(req.raw, caller, mandate);
      reply.hijack();
      await session.transport.handleRequest(req.raw, reply.raw, req.body);
      // An initialize the transport refused leaves a session without an id: drop it.
      if (session.transport.sessionId === undefined) this.sessions.abandon(session);
      return;
    }
    await this.relay(caller, name, id, token, req, reply);
  }

  /** The session's stream of server-to-agent messages. */
  @Get(':name')
  async stream(
    @CurrentCaller() caller: Caller,
    @Param('name') name: string,
    @Headers('mcp-session-id') sessionId: string | undefined,
    @Headers('x-service-mandate') mandate: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.relay(caller, name, header(sessionId), header(mandate), req, reply);
  }

  /** Ends the session (and its upstream connection). */
  @Delete(':name')
  async end(
    @CurrentCaller() caller: Caller,
    @Param('name') name: string,
    @Headers('mcp-session-id') sessionId: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    // Ending its own session needs no mandate.
    await this.relay(caller, name, header(sessionId), null, req, reply);
  }

  private async relay(
    caller: Caller,
    name: string,
    id: string | undefined,
    /** The request's mandate; null for a DELETE, which needs none. */
    token: string | undefined | null,
    req: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    if (id === undefined) throw invalidRequest('mcp-session-id header is required');
    const session = this.sessions.find(id, caller, name);
    // Unknown, expired or someone else's: the agent starts a new session (MCP: 404).
    if (session === null) throw new AppError('not_found', 'not_found', `MCP session ${id} is not open on ${name}`);
    // The path is chosen when the session opens: a mandate session never falls back to the legacy path.
    if (token === null) {
      // DELETE: the owner ends the session whatever its path.
    } else if (session.mandatePath && token === undefined) {
      throw new AppError('unauthenticated', 'mandate_invalid', 'this MCP session was opened with a mandate: every request must carry X-Service-Mandate');
    } else if (!session.mandatePath && token !== undefined) {
      throw invalidRequest('this MCP session was opened without a mandate (legacy path): open a new session to use one');
    } else {
      attachMandate(req.raw, caller, await this.upstreams.checkMandate(caller, name, token));
    }
    reply.hijack();
    await session.transport.handleRequest(req.raw, reply.raw, req.body);
  }
}
