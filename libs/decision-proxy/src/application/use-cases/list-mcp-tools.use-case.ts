import { Injectable } from '@nestjs/common';
import type { Caller } from '@igw/kernel';
import { actionInScope, mcpToolAction } from '../../domain';
import { DecideToolCallUseCase } from './decide-tool-call.use-case';

/**
 * `tools/list` through the MCP proxy (DESIGN 6.13): with a mandate, only the tools its scope (and
 * its card's) could allow — in scope and not forbidden; rules may still refuse a call. The
 * mandate is verified for the server's name as audience, as every call will be. Without a mandate
 * (legacy path) every tool is listed: each call is evaluated on its own.
 */
@Injectable()
export class ListMcpToolsUseCase {
  constructor(private readonly decide: DecideToolCallUseCase) {}

  async execute<T extends { name: string }>(caller: Caller, token: string | undefined, server: string, tools: readonly T[]): Promise<T[]> {
    if (token === undefined) return [...tools];
    const { claims, card } = await this.decide.mandateAndCard(caller, token, server);
    return tools.filter((tool) => actionInScope(mcpToolAction(server, tool.name, {}), claims, card));
  }
}
