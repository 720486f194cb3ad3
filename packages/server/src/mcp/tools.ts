import { z } from 'zod';
import { creditsText, HttpUrl, pricing } from '@wvr/engine';

const one = (price: { credits: number }) => creditsText(price.credits);
const advancedSearch = pricing.fullSearch({ rerank_results: true }).credits;
const advancedPage = pricing.crawlPage({ intent: '' }).credits;

/**
 * The MCP toolset. Every tool is one API operation under another name, so a tool call runs
 * exactly the route an HTTP caller would: same validation, same scopes, same error body.
 */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  /** The route's operationId (see routes/). */
  operationId: string;
  /**
   * A tool narrower than its route: its own arguments, turned into the route's request, and the
   * part of the route's answer the tool returns. Without it the tool takes the route's fields.
   */
  adapter?: McpAdapter;
}

export interface McpAdapter {
  input: z.ZodObject;
  toRequest(args: Record<string, unknown>): Record<string, unknown>;
  fromResponse(result: unknown): Record<string, unknown>;
}

/** read_page: a synchronous crawl of exactly one page, answered as that page's markdown and metadata. */
const readPage: McpAdapter = {
  input: z.strictObject({
    url: HttpUrl.describe('The page to read'),
    use_cache: z.boolean().optional().describe('Serve a recent copy from the cache at half price when there is one'),
  }),
  toRequest: ({ url, use_cache }) => ({ urls: [url], max_pages: 1, processing_mode: 'sync', ...(use_cache === undefined ? {} : { use_cache }) }),
  fromResponse: (result) => {
    const crawl = result as { id: string; error: string | null; stats: { credits_used: number }; documents: Record<string, unknown>[] };
    const doc = crawl.documents[0];
    if (!doc) return { crawl_id: crawl.id, read: false, error: crawl.error, credits_used: crawl.stats.credits_used };
    const { url, final_url, status_code, content_type, title, description, language, published_date, markdown, metadata, links, from_cache, fetched_at } = doc;
    return {
      crawl_id: crawl.id,
      read: true,
      url,
      final_url,
      status_code,
      content_type,
      title,
      description,
      language,
      published_date,
      markdown,
      metadata,
      links,
      from_cache,
      fetched_at,
      credits_used: crawl.stats.credits_used,
    };
  },
};

export const MCP_TOOLS: readonly McpTool[] = [
  {
    name: 'search',
    title: 'Search the web',
    operationId: 'search',
    description:
      `Full web search: results with titles, URLs and snippets, optionally reranked, with suggested follow-up queries and a summary. ${one(pricing.fullSearch({}))}; ${advancedSearch} with rerank_results or generate_suggestions. Use dry_run to see the cost first.`,
  },
  { name: 'search_quick', title: 'Quick search', operationId: 'quickSearch', description: `Quick web search: results right away, no extras. ${one(pricing.quickSearch())}.` },
  {
    name: 'read_page',
    title: 'Read a page',
    operationId: 'createCrawl',
    adapter: readPage,
    description: `Read one URL: its main content as markdown, with title, description, language, metadata and links. ${one(pricing.crawlPage({}))} (half from the cache with use_cache).`,
  },
  {
    name: 'crawl',
    title: 'Start a crawl',
    operationId: 'createCrawl',
    description:
      `Crawl from seed URLs (expansion internal or all follows links), optionally with an intent and an extraction schema. Async by default: poll crawl_progress (or crawl_status) with the returned id. ${one(pricing.crawlPage({}))} per page; ${advancedPage} with extraction, classification or an intent.`,
  },
  {
    name: 'crawl_status',
    title: 'Crawl status and documents',
    operationId: 'getCrawl',
    description: 'A crawl’s status and stats, with its documents (use documents=top and documents_limit to keep the answer short, or documents=none).',
  },
  {
    name: 'crawl_progress',
    title: 'Crawl progress',
    operationId: 'getCrawlProgress',
    description: 'A crawl’s status and stats with its best pages so far by URL, title and importance, none of their content: the short answer to poll while a crawl runs. Free.',
  },
  {
    name: 'extract',
    title: 'Extract structured data',
    operationId: 'previewExtraction',
    description:
      `Extract named fields from one page: extraction_schema maps each field to an instruction ("price": "the product price"). Returns extracted_data with per-field confidence. ${one(pricing.extractionPreview())}.`,
  },
  {
    name: 'ask',
    title: 'Ask a question',
    operationId: 'createAsk',
    description: `Answer a question from the web with cited sources. depth quick ${one(pricing.ask('quick'))}, standard ${pricing.ask('standard').credits}, deep ${pricing.ask('deep').credits} to ${pricing.ask('deep').max_credits}.`,
  },
  {
    name: 'sessions_create',
    title: 'Create a research session',
    operationId: 'createSession',
    description: 'Start a research session: an intent and settings under which searches, crawls and asks accumulate shared context. Free.',
  },
  {
    name: 'sessions_context',
    title: 'A session’s context',
    operationId: 'getSession',
    description: 'A research session with its operations and accumulated context summary (queries, documents, domains seen). Free.',
  },
  {
    name: 'monitors_create',
    title: 'Create a monitor',
    operationId: 'createWorkflow',
    description:
      'Create a monitor: a scheduled workflow that repeats a search or crawl, reports what changed since the last run, and stops when its condition is met. Use dry_run to see the cost first.',
  },
  { name: 'monitors_list', title: 'List monitors', operationId: 'listWorkflows', description: 'List your monitors (and those shared with you), with filters and paging.' },
  { name: 'monitors_get', title: 'Get a monitor', operationId: 'getWorkflow', description: 'One monitor with its schedule, stop condition and most recent reports.' },
  { name: 'monitors_update', title: 'Update a monitor', operationId: 'updateWorkflow', description: 'Change a monitor: name, operation, stop condition, interval, max executions or status (pause and resume with status).' },
  { name: 'monitors_delete', title: 'Delete a monitor', operationId: 'deleteWorkflow', description: 'Delete a monitor and stop its scheduled runs.' },
  {
    name: 'monitors_list_reports',
    title: 'List a monitor’s reports',
    operationId: 'listWorkflowExecutions',
    description: 'A monitor’s reports (its executions), newest first: results, what changed, credits and whether the stop condition was met.',
  },
  {
    name: 'monitors_chronicle',
    title: 'A monitor’s chronicle',
    operationId: 'getWorkflowChronicle',
    description: 'The time-ordered story of one monitor: each run’s new, dropped and changed items, in plain sentences with the URLs behind them.',
  },
  { name: 'monitors_share', title: 'Share a monitor', operationId: 'shareWorkflow', description: 'Share a monitor publicly or with one of your organizations, or stop sharing it.' },
  {
    name: 'monitors_digest',
    title: 'Digest of changes',
    operationId: 'getWorkflowDigest',
    description: 'What changed across all your monitors in a time window (default: the last 24 hours), most significant first.',
  },
  {
    name: 'monitors_expansion_recommendations',
    title: 'Expansion recommendations',
    operationId: 'getWorkflowRecommendations',
    description: 'New queries and URLs worth monitoring, proposed from what a monitor has found: salient entities, new domains and gaps.',
  },
  { name: 'credits_balance', title: 'Credits balance', operationId: 'getCredits', description: 'Your credit balance, plan, monthly grant and recent ledger entries.' },
  { name: 'user_me', title: 'Who am I', operationId: 'getProfile', description: 'Your account: email, plan, organizations, rate limits and this token’s scopes.' },
  {
    name: 'brand_design_system',
    title: 'Brand design system',
    operationId: 'getBrandDesignSystem',
    description: `Read a site’s brand system from a page and its stylesheets: name, tagline, logo, favicon, colours (primary, secondary, accent, background, text) and fonts. ${one(pricing.brandDesignSystem())}.`,
  },
  {
    name: 'map',
    title: 'Map a site',
    operationId: 'mapSite',
    description:
      'List a site’s URLs (with lastmod when its sitemap has it) from its sitemaps and, when they list little, the links of a few pages, without fetching the pages. Filter with search, url_patterns or exclude_patterns; pick what to read or crawl next. 1 credit.',
  },
];
