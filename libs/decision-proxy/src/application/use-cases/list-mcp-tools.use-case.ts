import { Injectable } from '@nestjs/common';
import { actionInScope, mcpToolAction } from '../../domain';
import type { VerifiedMandate } from '../decision-gate/tool-call-decision-gate';

/**
 * `tools/list` through the MCP proxy (DESIGN 6.13): with a mandate (verified for the server's
 * name as audience, as every call is), only the tools its scope (and its card's) could allow — in
 * scope and not forbidden; rules may still refuse a call. Without a mandate (legacy path) every
 * tool is listed: each call is evaluated on its own.
 */
@Injectable()
export class ListMcpToolsUseCase {
  execute<T extends { name: string }>(mandate: VerifiedMandate | null, server: string, tools: readonly T[]): T[] {
    if (mandate === null) return [...tools];
    return tools.filter((tool) => actionInScope(mcpToolAction(server, tool.name, {}), mandate.claims, mandate.card));
  }
}
