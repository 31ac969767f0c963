/** A page as the public list routes answer it. */
export interface CursorPage<T> {
  data: T[];
  next_cursor?: string | null;
}

/**
 * Follows `next_cursor` from the first page to the last, running `between` once after the first
 * page (a row arriving mid-walk); answers every item seen, in order, and the number of pages.
 */
export async function walkCursorPages<T>(
  page: (cursor: string | undefined) => Promise<CursorPage<T>>,
  between: () => Promise<void>,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const current = await page(cursor);
    items.push(...current.data);
    cursor = current.next_cursor ?? undefined;
    if (pages++ === 0) await between();
  } while (cursor);
  return { items, pages };
}
