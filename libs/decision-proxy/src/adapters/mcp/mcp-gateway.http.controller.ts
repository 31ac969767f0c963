import { Controller, Delete, Get, Headers, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentCaller } from '@igw/http';
import { AppError, invalidRequest, type Caller } from '@igw/kernel';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MCP_SERVER_NAME } from '../../domain';
import { OpenMcpUpstreamUseCase } from '../../application/use-cases/open-mcp-upstream.use-case';
import type { McpSession } from '../../domain/mcp-session';
import type { VerifiedMandate } from '../../application/decision-gate/tool-call-decision-gate';
import { readMcpPost } from './mcp-post';
import { requestAuth } from './mcp-session-server';
import { McpSessions } from './mcp-sessions';

const header = (v: string | string[] | undefined): string | undefined => {
  const value = Array.isArray(v) ? v[0] : v;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

const isInitialize = (body: unknown): boolean =>
  (Array.isArray(body) ? body : [body]).some((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize');

/**
 * `{base}/mcp/{name}` (DESIGN 6.13): MCP Streamable HTTP toward the agent, answered with JSON by
 * the official SDK server of the caller's session. The API key (global guard) and the mandate,
 * when sent, are checked here first, so an auth failure is an HTTP `{code, message}` before any
 * MCP traffic.
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
      const post = readMcpPost(req.headers, req.body, true);
      if ('status' in post) return void reply.status(post.status).send({ code: post.code, message: post.message });
      const { upstream, mandate } = await this.upstreams.execute(caller, name, token);
      const session = await this.sessions.open(caller, mandate !== null, upstream);
      const answered = await this.answer(session, post, caller, mandate, req, reply, true);
      // An initialize the SDK refused (bad protocol version, malformed): the session never began.
      if (!answered) await this.sessions.end(session).catch(() => undefined);
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
    await this.relay(caller, name, header(sessionId), header(mandate), req, reply, 'stream');
  }

  /** Ends the session (and its upstream session), on every replica. */
  @Delete(':name')
  async end(
    @CurrentCaller() caller: Caller,
    @Param('name') name: string,
    @Headers('mcp-session-id') sessionId: string | undefined,
    @Headers('x-service-mandate') mandate: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.relay(caller, name, header(sessionId), header(mandate), req, reply, 'end');
  }

  private async relay(
    caller: Caller,
    name: string,
    id: string | undefined,
    token: string | undefined,
    req: FastifyRequest,
    reply: FastifyReply,
    what: 'message' | 'stream' | 'end' = 'message',
  ): Promise<void> {
    if (id === undefined) throw invalidRequest('mcp-session-id header is required');
    const session = await this.sessions.find(id, caller, name);
    // Unknown, expired or someone else's: the agent starts a new session (MCP: 404).
    if (session === null) throw notOpen(id, name);
    // The path is chosen when the session opens, and holds for every request, DELETE included:
    // a mandate session never falls back to the legacy path, whichever replica answers.
    if (session.mandatePath && token === undefined) {
      throw new AppError('unauthenticated', 'mandate_invalid', 'this MCP session was opened with a mandate: every request must carry X-Service-Mandate');
    }
    if (!session.mandatePath && token !== undefined) {
      throw invalidRequest('this MCP session was opened without a mandate (legacy path): open a new session to use one');
    }
    const mandate = await this.upstreams.checkMandate(caller, name, token);
    if (what === 'end') {
      await this.sessions.end(session);
      void reply.status(200).send();
      return;
    }
    if (what === 'stream') {
      // No standing server-to-agent stream: each request is served by whichever replica it
      // reaches (decision 0020), so nothing could write to one. MCP: 405 says so; answers and
      // their progress come on each POST's own response.
      void reply
        .status(405)
        .header('allow', 'POST, DELETE')
        .send({ code: 'method_not_allowed', message: 'this MCP endpoint offers no GET stream; send requests with POST' });
      return;
    }
    const post = readMcpPost(req.headers, req.body, false);
    if ('status' in post) return void reply.status(post.status).send({ code: post.code, message: post.message });
    if (!(await this.answer(session, post, caller, mandate, req, reply))) {
      // Its server was removed from the registry: the session is over.
      if (!reply.sent) throw notOpen(id, name);
    }
  }

  /**
   * The session's server answers the POST's requests: one JSON answer (an array for a batch), or
   * 202 when it carried only notifications. False when the session is gone or an initialize failed.
   */
  private async answer(
    session: McpSession,
    post: { messages: JSONRPCMessage[]; batch: boolean },
    caller: Caller,
    mandate: VerifiedMandate | null,
    req: FastifyRequest,
    reply: FastifyReply,
    opening = false,
  ): Promise<boolean> {
    // The agent went away before its answer: what still waits is cancelled.
    const gone = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) gone.abort();
    };
    reply.raw.once('close', onClose);
    // Gone already (while the key, session or mandate were checked): nothing is decided or forwarded.
    if (reply.raw.destroyed || req.raw.socket?.destroyed) gone.abort();
    try {
      const answers = await this.sessions.serve(session, post.messages, requestAuth(caller, mandate), gone.signal);
      if (answers === null) return false;
      if (answers.length === 0) {
        void reply.status(202).send();
        return true;
      }
      const [first] = answers;
      const began = !opening || (first !== undefined && !('error' in first));
      // The stored session id, sent back on the initialize's answer.
      if (opening && began) void reply.header('mcp-session-id', session.id);
      void reply
        .status(200)
        .header('content-type', 'application/json')
        .send(JSON.stringify(post.batch ? answers : first));
      return began;
    } finally {
      reply.raw.off('close', onClose);
    }
  }
}

const notOpen = (id: string, name: string) => new AppError('not_found', 'not_found', `MCP session ${id} is not open on ${name}`);
