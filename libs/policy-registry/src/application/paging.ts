import { parseKeysetQuery, type PageRequest, type QueryValue } from '@igw/kernel';

export { decodeCursor, encodeCursor, toPage, type PageKey, type PageRequest, type QueryValue } from '@igw/kernel';

/** This service's lists: newest first, 200 per page unless `limit` says otherwise. */
export const PAGE_LIMIT = { max: 200, default: 200 } as const;

export function parsePageQuery(query: { limit?: QueryValue; cursor?: QueryValue }): PageRequest {
  return parseKeysetQuery(query, { defaultLimit: PAGE_LIMIT.default });
}
