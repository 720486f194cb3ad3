export interface Page<T> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
}

/**
 * Walks a list endpoint page by page: `for await (const crawl of paginate(client.crawls.list, { status }))`.
 */
export async function* paginate<T, Q extends { limit?: number; offset?: number }>(
  list: (query: Q) => Promise<Page<T>>,
  query: Q = {} as Q,
): AsyncGenerator<T> {
  let offset = query.offset ?? 0;
  for (;;) {
    const page = await list({ ...query, offset });
    yield* page.data;
    offset += page.data.length;
    if (page.data.length === 0 || offset >= page.total) return;
  }
}
