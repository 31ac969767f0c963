import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateBy, type ValidationArguments } from 'class-validator';
import { PageOf } from './common.dto';

/** DESIGN 6.13: an upstream's name, unique per org; it is the `{name}` of `{base}/mcp/{name}` and a mandate's audience. */
export const MCP_SERVER_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const MCP_SERVER_MAX_HEADERS = 32;
export const MCP_SERVER_MAX_HEADER_VALUE = 8192;
export const MCP_SERVER_MAX_HEADER_NAME = 256;
/** Headers the proxy sets itself on every upstream request: a registration may not override them. */
export const MCP_SERVER_RESERVED_HEADERS: readonly string[] = [
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'mcp-session-id',
  'mcp-protocol-version',
];
/** An HTTP header field name (RFC 9110 token). */
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const hasControl = (v: string): boolean => [...v].some((c) => (c < ' ' && c !== '\t') || c === '\u007f');

/** Why `value` is not an acceptable `headers` map, naming the field; null when it is. */
export function mcpHeadersProblem(value: unknown, path = 'headers'): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${path} must be an object of header names to string values`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MCP_SERVER_MAX_HEADERS) return `${path} must have at most ${MCP_SERVER_MAX_HEADERS} entries`;
  const seen = new Set<string>();
  for (const [name, v] of entries) {
    if (name.length > MCP_SERVER_MAX_HEADER_NAME || !HEADER_TOKEN.test(name))
      return `${path} names must be HTTP header names (a token of at most ${MCP_SERVER_MAX_HEADER_NAME} characters)`;
    const lower = name.toLowerCase();
    if (MCP_SERVER_RESERVED_HEADERS.includes(lower)) return `${path} must not set ${lower}: the proxy sets it itself`;
    if (seen.has(lower)) return `${path} names ${lower} more than once`;
    seen.add(lower);
    if (typeof v !== 'string') return `${path}.${name} must be a string`;
    if (v.length > MCP_SERVER_MAX_HEADER_VALUE) return `${path}.${name} must be at most ${MCP_SERVER_MAX_HEADER_VALUE} characters`;
    // A header value may not carry line breaks or NUL (header injection); other controls but tab neither.
    if (hasControl(v)) return `${path}.${name} must not contain control characters`;
  }
  return null;
}

/** class-validator rule for the `headers` map (no compiled twin: the DTO is checked by class-validator alone). */
function IsMcpHeaders(): PropertyDecorator {
  return ValidateBy({
    name: 'isMcpHeaders',
    validator: {
      validate: (value: unknown) => mcpHeadersProblem(value) === null,
      defaultMessage: (args?: ValidationArguments) => mcpHeadersProblem(args?.value, args?.property ?? 'headers') ?? 'headers is invalid',
    },
  });
}

/** Body of POST /v1/mcp-servers (DESIGN 6.13). */
export class RegisterMcpServerDto {
  @ApiProperty({ pattern: MCP_SERVER_NAME_PATTERN.source, example: 'crm' })
  @IsString({ message: 'name must be a string' })
  @Matches(MCP_SERVER_NAME_PATTERN, { message: 'name must match ^[a-z0-9][a-z0-9_-]{0,62}$ (lowercase letters, digits, _ and -; at most 63)' })
  name!: string;

  @ApiProperty({ maxLength: 2048, example: 'https://mcp.example.com/mcp', description: 'The upstream Streamable HTTP MCP endpoint (http or https).' })
  @IsString({ message: 'url must be a string' })
  @IsNotEmpty({ message: 'url is required' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  url!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: MCP_SERVER_MAX_HEADER_VALUE },
    maxProperties: MCP_SERVER_MAX_HEADERS,
    description: 'Forwarded on every upstream request; sealed at rest and never shown again.',
  })
  @IsOptional()
  @IsMcpHeaders()
  headers?: Record<string, string>;

  @ApiPropertyOptional({ default: false, description: 'Legacy path: forward what evaluation denies, recorded as shadow_denied.' })
  @IsOptional()
  @IsBoolean({ message: 'shadow must be a boolean' })
  shadow?: boolean;
}

export class McpServerDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: [String], description: 'Names of the headers forwarded upstream; their values are never shown.' }) header_names!: string[];
  @ApiProperty() shadow!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class McpServerListDto extends PageOf(McpServerDto) {}
