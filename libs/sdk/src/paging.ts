import type { Page } from './types';

/**
 * Every item of a cursor-paged list, page after page (`cursor` = the previous `next_cursor`),
 * fetched lazily: stop iterating and no further page is requested.
 */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.data;
    if (!page.next_cursor) return;
    cursor = page.next_cursor;
  }
}
