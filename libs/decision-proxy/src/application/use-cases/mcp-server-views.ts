import type { McpServerDto } from '@igw/contracts';
import { invalidRequest } from '@igw/kernel';
import type { McpServer } from '../../domain';

/** The public view: header names only, never their values. */
export const toMcpServerDto = (s: McpServer): McpServerDto => ({
  id: s.id,
  name: s.name,
  url: s.url,
  header_names: [...s.headerNames],
  shadow: s.shadow,
  created_at: s.createdAt.toISOString(),
});

/** 400 `invalid_request` naming the one field that is wrong. */
export const badField = (path: string, message: string) => invalidRequest(message, [{ path, message }]);
