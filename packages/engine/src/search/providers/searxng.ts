import { undici } from '../../core/undici.js';
import { WvrError } from '../../core/errors.js';
import { domainMatches, domainOf } from '../text.js';
import type { ProviderHit, ProviderQuery, SearchProvider } from './types.js';

interface SearxResult {
  url?: unknown;
  title?: unknown;
  content?: unknown;
  publishedDate?: unknown;
  score?: unknown;
}

const TIMEOUT_MS = 10_000;
const MAX_PAGES = 3;

/** A SearXNG instance's JSON API (`/search?format=json`); JSON output must be enabled on it. */
export function searxngProvider(baseUrl: string, userAgent: string): SearchProvider {
  const endpoint = new URL('search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  return {
    name: 'searxng',
    kind: 'web',
    async search(q: ProviderQuery): Promise<ProviderHit[]> {
      const extra = q.optionalTerms?.length ? ` ${q.optionalTerms.join(' ')}` : '';
      const raw: SearxResult[] = [];
      // SearXNG pages its answers (about 10 a page): read on until there are enough or the pages run out.
      for (let pageno = 1; pageno <= MAX_PAGES && raw.length < q.maxResults; pageno++) {
        const url = new URL(endpoint);
        url.searchParams.set('q', q.query + extra);
        url.searchParams.set('format', 'json');
        url.searchParams.set('pageno', String(pageno));
        const body = (await fetchJson(url, userAgent, q.signal)) as { results?: unknown };
        const page = Array.isArray(body.results) ? (body.results as SearxResult[]) : [];
        if (page.length === 0) break;
        raw.push(...page);
      }
      const unique = new Map<string, SearxResult & { url: string }>();
      for (const r of raw) {
        if (typeof r.url === 'string' && /^https?:\/\//.test(r.url) && !unique.has(r.url)) unique.set(r.url, { ...r, url: r.url });
      }
      const hits = [...unique.values()]
        .map((r) => ({ r, domain: domainOf(r.url) }))
        .filter(({ domain }) => keep(domain, q.includeDomains, q.excludeDomains))
        .slice(0, q.maxResults);
      const maxScore = Math.max(0, ...hits.map(({ r }) => (typeof r.score === 'number' ? r.score : 0)));
      return hits.map(({ r, domain }, i) => ({
        title: typeof r.title === 'string' && r.title ? r.title : r.url,
        url: r.url,
        description: typeof r.content === 'string' ? r.content : '',
        publishedDate: typeof r.publishedDate === 'string' && r.publishedDate ? r.publishedDate : null,
        // SearXNG scores are unnormalised and sometimes absent: scale by the best, else by position.
        relevanceScore:
          maxScore > 0 && typeof r.score === 'number' ? round(r.score / maxScore) : round(1 - i / Math.max(hits.length, 1)),
        domain,
        schemaTypes: [],
      }));
    },
  };
}

function keep(domain: string, include: string[] | undefined, exclude: string[] | undefined): boolean {
  if (include?.length && !include.some((d) => domainMatches(domain, d))) return false;
  return !exclude?.some((d) => domainMatches(domain, d));
}

async function fetchJson(url: URL, userAgent: string, signal?: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    const res = await undici().request(url, { method: 'GET', headers: { accept: 'application/json', 'user-agent': userAgent }, signal: combined });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new WvrError('upstream_error', `The web search provider at ${url.origin} failed: ${(cause as Error).message}`, {
      code: 'search_provider_failed',
      suggestions: ['Check WVR_SEARXNG_URL and that the instance has the json format enabled.', 'Search the local index instead.'],
      details: { provider: 'searxng', origin: url.origin },
      cause,
    });
  }
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
