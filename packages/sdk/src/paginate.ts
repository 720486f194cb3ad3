export interface Page<T> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
}

type ItemOf<F> = F extends (...args: never[]) => Promise<Page<infer T>> ? T : never;

/**
 * Walks a list endpoint page by page: `for await (const crawl of paginate(wvr.crawls.list, { status: 'completed' }))`.
 * The query is the list method's own, so its filters stay typed (a wrong status does not compile).
 */
export async function* paginate<F extends (query?: any) => Promise<Page<unknown>>>(list: F, query?: Parameters<F>[0]): AsyncGenerator<ItemOf<F>> {
  const base = (query ?? {}) as { offset?: number };
  let offset = base.offset ?? 0;
  for (;;) {
    const page = (await list({ ...base, offset })) as Page<ItemOf<F>>;
    yield* page.data;
    offset += page.data.length;
    if (page.data.length === 0 || offset >= page.total) return;
  }
}
