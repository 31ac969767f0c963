import type { ErrorDto, McpServerDto, McpServerListDto, RegisterMcpServerDto } from '@igw/contracts';

/** Examples of the mcp-servers routes in the OpenAPI document (typed, and checked against the schemas by the linter). */
type Named<T> = Record<string, { summary: string; value: T }>;

export const REGISTER_MCP_SERVER_EXAMPLES: Named<RegisterMcpServerDto> = {
  minimal: { summary: 'A name and a URL', value: { name: 'crm', url: 'https://mcp.example.com/mcp' } },
  with_headers: {
    summary: 'With a credential header for the upstream',
    value: { name: 'crm', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer upstream-token-example' }, shadow: false },
  },
};

export const MCP_SERVER_EXAMPLE: McpServerDto = {
  id: 'mcs_0193a6f7b3c49d5e0f1a2b3c4d5e6f70',
  name: 'crm',
  url: 'https://mcp.example.com/mcp',
  header_names: ['Authorization'],
  shadow: false,
  created_at: '2026-11-26T09:20:14.377Z',
};

export const MCP_SERVER_LIST_EXAMPLE: McpServerListDto = {
  data: [
    MCP_SERVER_EXAMPLE,
    {
      id: 'mcs_0193a6f0c2d38e4f5a6b7c8d9e0f1a2b',
      name: 'tickets',
      url: 'https://tickets.example.net/mcp',
      header_names: [],
      shadow: true,
      created_at: '2026-11-25T16:02:51.908Z',
    },
  ],
  next_cursor: null,
};

const invalid = (path: string, message: string) => ({ summary: message, value: { code: 'invalid_request', message, details: [{ path, message }] } });

export const REGISTER_MCP_SERVER_INVALID_EXAMPLES: Named<ErrorDto> = {
  name: invalid('name', 'name must match ^[a-z0-9][a-z0-9_-]{0,62}$ (lowercase letters, digits, _ and -; at most 63)'),
  url_scheme: invalid('url', 'url must use https (or http)'),
  url_credentials: invalid('url', 'url must not carry credentials (use headers)'),
  url_private: invalid('url', 'url host mcp.internal resolves to 10.0.4.12, which is not a public address'),
  url_unresolved: invalid('url', 'url host mcp.example.invalid does not resolve'),
  headers_reserved: invalid('headers', 'headers must not set host: the proxy sets it itself'),
};
