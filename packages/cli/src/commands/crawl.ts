import { Command, Option } from 'commander';
import { MAX_PER_HOST_CONCURRENCY } from '@wvr/engine/vocabulary';
import type { WvrClient } from '@wvr/sdk';
import { contextOf, withClient } from '../context.js';
import { describeSharing, shareBody, withShareOptions, type ShareFlags } from './share.js';
import { balanceNote, emit, table, terminalWidth, type Output } from '../output/print.js';
import { CliError } from '../output/errors.js';
import { intBetween, nonNegativeInt, positiveInt } from './parse.js';
import { schemaArgument } from './extract.js';
import { OUTPUT_FORMATS, writeCrawlJson, writeDocuments, type OutputFormat } from './crawl-output.js';
import { whyEnded } from '../views/crawl-end.js';
import { crawlProgress, isFinished, progressLine, type CrawlDetail, type CrawlPoll, type CrawlProgress } from '../views/crawl-progress.js';
import { exitIfStuck } from '../shutdown.js';
import { terminalData } from '../output/terminal-text.js';

type CrawlBody = Parameters<WvrClient['crawls']['create']>[0];
type CrawlListQuery = NonNullable<Parameters<WvrClient['crawls']['list']>[0]>;
type Expansion = NonNullable<CrawlBody['expansion']>;

const EXPANSIONS: readonly Expansion[] = ['none', 'internal', 'external', 'both'];
const STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
/** A poll that shows progress: twice a second is as often as a person reads it. */
const POLL_MS = 500;
/**
 * With --json nothing is shown, and a poll asks for no best pages: a few hundred bytes of stats. Polling five times
 * as often makes the command return within a tenth of a second of the crawl's end, not a quarter of a second later
 * on average.
 */
const QUIET_POLL_MS = 100;
/**
 * The first polls come sooner, the wait doubling from here up to the mode's own: a crawl run from the command line is
 * often a page or a few, done in a fraction of a second, and the command waited out a whole first interval (half of
 * it on average, 50 or 250 ms) after the crawl had ended.
 */
const FIRST_POLL_MS = 25;
const pollDelay = (polls: number, interval: number): number => Math.min(interval, FIRST_POLL_MS * 2 ** polls);
const BEST_PAGES = 5;
/** Rows of the pages table under a finished crawl. */
const SHOWN_DOCUMENTS = 20;

interface CrawlOptions {
  maxPages?: number;
  maxDepth?: number;
  expansion?: Expansion;
  intent?: string;
  schema?: Record<string, string>;
  classify?: boolean;
  summary?: boolean;
  wait?: boolean;
  out?: string;
  format: OutputFormat;
  dryRun?: boolean;
  session?: string;
  render?: NonNullable<CrawlBody['render']>;
  sitemap?: boolean;
  concurrency?: number;
}

export function crawlCommand(): Command {
  return new Command('crawl')
    .description('crawl seed URLs with a live view; locally the crawl runs in this process until it ends')
    .argument('<urls...>', 'seed URLs (1 to 100)')
    .option('--max-pages <n>', 'page budget, 1 to 1000 (default 10)', positiveInt)
    .option('--max-depth <n>', 'link depth from the seeds (default 1 when expanding, 2 with --intent)', positiveInt)
    .addOption(
      new Option('--expansion <mode>', 'follow links: none, internal, external or both (smart crawl when not none); default internal with --intent or --max-pages above 1, else none').choices(EXPANSIONS),
    )
    .option('--intent <text>', 'what the crawl is for (10+ characters): steers smart crawl, advanced pricing')
    .option('--schema <file|json>', 'extraction schema: field name to instruction, as inline JSON or a JSON file', schemaArgument)
    .option('--classify', 'label each document (article, product, listing...): advanced pricing')
    .option('--summary', 'a summary of the crawl (free)')
    .option('--wait', 'with --remote, wait for the end with the live view (locally it always waits)')
    .option('--out <dir>', 'write the documents into this folder (implies --wait)')
    .addOption(new Option('--format <format>', 'format of --out').choices(OUTPUT_FORMATS).default('json'))
    .option('--dry-run', 'validate and show the price; nothing is crawled or charged')
    .option('--session <id>', 'run it in this research session: on its timeline, pages it has seen skipped')
    .option('--sitemap', 'also queue the URLs the sites’ sitemaps list (as `wvr map` reads them) before the first fetch; follows links')
    .option(
      '--concurrency <n>',
      `parallel requests to one site, 1 to ${MAX_PER_HOST_CONCURRENCY}, for the local engine (default 2, or WVR_PER_HOST_CONCURRENCY): more for a site of your own`,
      intBetween(1, MAX_PER_HOST_CONCURRENCY),
    )
    .addOption(
      new Option('--render <mode>', 'run page scripts in headless Chromium: auto renders application shells only (default), always renders every page (advanced pricing)').choices([
        'never',
        'auto',
        'always',
      ]),
    )
    .action(async (urls: string[], opts: CrawlOptions, command: Command) => {
      const ctx = contextOf(command);
      // A server paces its fetches for all its users: its operator sets this where it runs.
      if (opts.concurrency && ctx.options.remote) {
        throw new CliError('--concurrency sets the local engine; a server keeps its own (WVR_PER_HOST_CONCURRENCY where it runs).', 'local_only', 2);
      }
      const expansion = opts.expansion ?? impliedExpansion(opts, ctx.output);
      const body: CrawlBody = {
        urls,
        ...(opts.maxPages ? { max_pages: opts.maxPages } : {}),
        ...(expansion ? { expansion } : {}),
        ...(opts.maxDepth ? { link_extraction_config: { max_depth: opts.maxDepth } } : {}),
        ...(opts.intent ? { intent: opts.intent } : {}),
        ...(opts.schema ? { extraction_schema: opts.schema } : {}),
        ...(opts.classify ? { classify_documents: true } : {}),
        ...(opts.summary ? { generate_summary: true } : {}),
        ...(opts.dryRun ? { dry_run: true } : {}),
        ...(opts.session ? { session_id: opts.session } : {}),
        ...(opts.render ? { render: opts.render } : {}),
        ...(opts.sitemap ? { sitemap: 'include' as const } : {}),
      };
      const wait = Boolean(opts.wait || opts.out || !ctx.options.remote);
      let written: string[] = [];
      const result = await withClient(
        ctx,
        async (client) => {
          const created = await client.crawls.create(body);
          if ('dry_run' in created || !wait) return created;
          const detail = await follow(client, created.id, ctx.output);
          // After Ctrl-C the documents so far are still worth keeping.
          if (opts.out) written = writeDocuments(opts.out, await collect(documentsOf(client, detail.id)), opts.format);
          if (ctx.output.json) await writeCrawlJson(ctx.output.write, detail, documentsOf(client, detail.id));
          return detail;
        },
        { background: true, ...(opts.concurrency ? { engine: { fetchLimits: { perHostConcurrency: opts.concurrency } } } : {}) },
      );
      if ('dry_run' in result) {
        emit(ctx.output, result, (d) =>
          [
            `Would reserve ${d.cost_estimate} credit(s): ${d.max_pages} page(s) at ${d.price_per_page}, ${d.pricing_tier}${d.advanced_features.length ? ` (${d.advanced_features.join(', ')})` : ''}.`,
            `Depth ${d.max_depth}, smart crawl ${d.smart_crawl ? 'on' : 'off'}; ${balanceNote(d.credits_balance, d.would_succeed)}.`,
          ].join('\n'),
        );
        return;
      }
      // A followed crawl's JSON went out above, its documents streamed.
      if (!(wait && ctx.output.json)) {
        emit(ctx.output, result, (d) =>
          wait
            ? [renderDetail(d), ...(opts.out ? [`Wrote ${written.length} file(s) (${opts.format}) to ${opts.out}.`] : [])].join('\n')
            : `Crawl ${d.id} is ${d.status}. Follow it with: wvr crawls show ${d.id} --watch`,
        );
      }
      if (ctx.output.json && opts.out) ctx.output.err(`Wrote ${written.length} file(s) (${opts.format}) to ${opts.out}.`);
      const ended = wait ? whyEnded(result) : null;
      if (ended) ctx.output.err(ended);
      if (result.status === 'failed') throw new CliError(`Crawl ${result.id} failed: ${result.error ?? 'no reason given'}`, 'crawl_failed');
    });
}

export function crawlsCommand(): Command {
  const crawls = new Command('crawls').description('list, show, cancel and share crawls');

  crawls
    .command('list')
    .description('your crawls and those shared with your organizations, newest first')
    .addOption(new Option('--status <status>', 'only crawls in this status').choices(STATUSES))
    .option('--limit <n>', 'page size (1-100)', positiveInt)
    .option('--offset <n>', 'items to skip', nonNegativeInt)
    .action(async (opts: CrawlListQuery, command: Command) => {
      const ctx = contextOf(command);
      const page = await withClient(ctx, (client) => client.crawls.list({ status: opts.status, limit: opts.limit, offset: opts.offset }));
      emit(ctx.output, page, (p) =>
        [
          table(
            p.data.map((c) => ({
              ...c,
              pages: `${c.stats.pages_crawled}/${c.stats.max_pages}`,
              credits: c.stats.credits_used,
              seeds: seedsOf(c.configuration),
            })),
            ['id', 'status', 'pages', 'credits', 'created_at', 'seeds'],
          ),
          `${p.data.length} of ${p.total}`,
        ].join('\n'),
      );
    });

  crawls
    .command('show <id>')
    .description('a crawl: status, stats, documents, summary, smart crawl report')
    .option('--watch', 'follow a running crawl with the live view until it ends')
    .action(async (id: string, opts: { watch?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      await withClient(
        ctx,
        async (client) => {
          const detail = opts.watch ? await follow(client, id, ctx.output) : await client.crawls.get(id, ctx.output.json ? NO_DOCUMENTS : FINAL_READ);
          if (ctx.output.json) await writeCrawlJson(ctx.output.write, detail, documentsOf(client, detail.id));
          else ctx.output.out(renderDetail(detail));
        },
        { background: Boolean(opts.watch) },
      );
    });

  crawls
    .command('progress <id>')
    .description('a crawl at this moment, read light: status, stats and its best pages so far, none of their content')
    .option('--best <n>', 'how many of the best pages (0-100)', intBetween(0, 100), BEST_PAGES)
    .action(async (id: string, opts: { best: number }, command: Command) => {
      const ctx = contextOf(command);
      const poll = await withClient(ctx, (client) => client.crawls.progress(id, { best_pages: opts.best }));
      emit(ctx.output, poll, (p) => renderPoll(p));
    });

  crawls
    .command('cancel <id>')
    .description('cancel a pending or running crawl; reserved credits are released')
    .option('--abort', 'abort (POST /abort) rather than cancel (DELETE); both end the crawl cancelled')
    .action(async (id: string, opts: { abort?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      const detail = await withClient(ctx, (client) => (opts.abort ? client.crawls.abort(id) : client.crawls.cancel(id)));
      emit(ctx.output, detail, (d) => `Crawl ${d.id} is ${d.status}: ${d.stats.pages_crawled} page(s) fetched, ${d.stats.credits_used} credit(s) charged.`);
    });

  withShareOptions(crawls.command('share <id>'), {
    public: 'anyone with the id may read it at /v1/public/crawls/ID, without a token',
    org: 'members of this organization may read it',
  }).action(async (id: string, opts: ShareFlags, command: Command) => {
    const ctx = contextOf(command);
    const detail = await withClient(ctx, (client) => client.crawls.share(id, shareBody(opts)));
    emit(ctx.output, detail, (d) => describeSharing(d.sharing));
  });

  return crawls;
}

/**
 * Asking for more than one page, or for an intent, means following links: without this a crawl with
 * --max-pages 50 would fetch the seed alone. Said on stderr, with the flag that turns it off.
 */
function impliedExpansion(opts: CrawlOptions, output: Output): Expansion | undefined {
  const by = opts.intent ? '--intent' : opts.maxPages && opts.maxPages > 1 ? '--max-pages' : undefined;
  if (!by) return undefined;
  output.err(`Following links within the seed sites (--expansion internal, implied by ${by}); pass --expansion none to fetch only the seeds.`);
  return 'internal';
}

/**
 * With --json nothing is shown while the crawl runs and the documents are streamed apart (writeCrawlJson), so the
 * final read carries none: a top document of a documentation site is an index page with thousands of links.
 */
const NO_DOCUMENTS = { documents: 'none' } as const;
/** The finished crawl as shown: the pages table's rows; --json and --out read every document a page at a time. */
const FINAL_READ = { documents: 'top', documents_limit: SHOWN_DOCUMENTS } as const;
/**
 * Reading every document: each read asks for as many documents as make about READ_CHARS of text, markdown and links,
 * going by the documents of the read before (FIRST_READ at first, then between FIRST_READ and MOST_PER_READ, the
 * API's most). A read is held several times over at once (rows, the response's JSON and bytes, the parsed page, the
 * output), and a document of a large page carries hundreds of KB: 50 a read put over 100 MB on the CLI's peak on the
 * NLTK site. A read also costs about 1.5 ms of its own whatever its size, so on a site of small pages (the PostgreSQL
 * manual: 15 KB of JSON a document) 5 a read spent a third of the output's 1 s on 200 reads.
 */
const READ_CHARS = 1_000_000;
const FIRST_READ = 5;
const MOST_PER_READ = 100;

/** Every document of a crawl, in crawl order, a read at a time (see READ_CHARS). */
async function* documentsOf(client: WvrClient, id: string) {
  let limit = FIRST_READ;
  for (let offset = 0; ; ) {
    const page = await client.crawls.documents(id, { offset, limit });
    yield* page.data;
    offset += page.data.length;
    if (page.data.length === 0 || offset >= page.total) return;
    const chars = page.data.reduce((n, d) => n + d.text.length + d.markdown.length + d.links.reduce((m, l) => m + l.url.length + l.text.length, 0), 0);
    limit = Math.max(FIRST_READ, Math.min(MOST_PER_READ, Math.floor((READ_CHARS * page.data.length) / Math.max(1, chars))));
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * Polls the crawl's progress (GET /v1/crawls/{id}/progress: its stats and best pages by name, none of their content,
 * so a poll costs the same on a site of 2 MB pages as on a shop's) until it ends, showing it: the ink view on a
 * terminal, a plain line per change otherwise, nothing with --json (stdout carries only the final document). At the
 * end the crawl is read once with the rows the pages table shows; whoever wants every document reads them a page at a
 * time (documentsOf). Ctrl-C stops watching, not the crawl.
 */
async function follow(client: WvrClient, id: string, output: Output): Promise<CrawlDetail> {
  const best = { best_pages: output.json ? 0 : BEST_PAGES };
  let poll = await client.crawls.progress(id, best);
  const base = { pages: poll.stats.pages_crawled, atMs: Date.now() };
  const show = await progressSink(output);
  let interrupted = false;
  const onInterrupt = () => {
    interrupted = true;
    exitIfStuck();
  };
  process.once('SIGINT', onInterrupt);
  try {
    for (let polls = 0; ; polls++) {
      show.update(crawlProgress(poll, base, Date.now()));
      if (isFinished(poll.status) || interrupted) break;
      await new Promise((resolve) => setTimeout(resolve, pollDelay(polls, output.json ? QUIET_POLL_MS : POLL_MS)));
      poll = await client.crawls.progress(id, best);
    }
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    show.done();
  }
  const detail = await client.crawls.get(id, output.json ? NO_DOCUMENTS : FINAL_READ);
  if (interrupted) output.err(`Stopped watching; crawl ${detail.id} is ${detail.status}. Cancel it with: wvr crawls cancel ${detail.id}`);
  return detail;
}

interface ProgressSink {
  update(progress: CrawlProgress): void;
  done(): void;
}

async function progressSink(output: Output): Promise<ProgressSink> {
  if (output.json) return { update: () => {}, done: () => {} };
  if (!process.stdout.isTTY) {
    let last = '';
    return {
      update: (p) => {
        // The rate changes every poll; print when the crawl itself moved.
        const key = `${p.status} ${p.pages} ${p.failed} ${p.queued}`;
        // Progress is a note for the person watching: stderr, so stdout carries only the result.
        if (key !== last) output.err(progressLine(p));
        last = key;
      },
      done: () => {},
    };
  }
  const { createElement, render, CrawlView } = await import('../views/CrawlView.js');
  let app: ReturnType<typeof render> | undefined;
  const view = (p: CrawlProgress) => createElement(CrawlView, { progress: terminalData(p), width: process.stdout.columns ?? 80 });
  return {
    update: (p) => {
      if (app) app.rerender(view(p));
      else app = render(view(p), { exitOnCtrlC: false, patchConsole: false });
    },
    done: () => app?.unmount(),
  };
}

function seedsOf(configuration: Record<string, unknown>): string {
  const urls = configuration.urls;
  return Array.isArray(urls) ? urls.map(String).join(' ') : '-';
}


/** A row of a pages table: a crawl's documents under its summary, a progress read's best pages. */
const pageRow = (d: CrawlPoll['best_pages'][number]) => ({ importance: d.importance_score.toFixed(3), status: d.status_code, depth: d.depth, title: d.title ?? '(untitled)', url: d.final_url || d.url });

/** A crawl's counts in one line, as `crawls show` and `crawls progress` print them. */
function countsLine(c: Pick<CrawlPoll, 'id' | 'status' | 'stats'>): string {
  const s = c.stats;
  return `Crawl ${c.id} ${c.status}: ${s.pages_crawled}/${s.max_pages} pages, ${s.pages_failed} failed, ${s.pages_skipped} duplicate(s), ${s.pages_filtered} filtered by classifiers, ${s.pages_cached} from cache, depth ${s.max_depth}`;
}

/** A progress read as text: its counts, then the best pages so far. */
function renderPoll(p: CrawlPoll): string {
  const lines = [countsLine(p), `${p.stats.pages_queued} queued, ${p.stats.credits_used} credit(s) used`];
  if (p.error) lines.push(`error: ${p.error}`);
  if (p.best_pages.length > 0) lines.push('', table(p.best_pages.map(pageRow), ['importance', 'status', 'depth', 'title', 'url']));
  return lines.join('\n');
}

/** `width` fits the pages table to a terminal (see table()); without one, titles and URLs print in full. */
export function renderDetail(d: CrawlDetail, width = terminalWidth()): string {
  const s = d.stats;
  const lines = [
    countsLine(d),
    `${s.credits_used} credit(s) used${s.credits_reserved ? `, ${s.credits_reserved} reserved` : ''} (${s.pricing_tier}${s.advanced_features.length ? `: ${s.advanced_features.join(', ')}` : ''}) · access ${d.access_level}`,
  ];
  if (s.last_failure) lines.push(`last failure: ${s.last_failure}`);
  if (d.error) lines.push(`error: ${d.error}`);
  if (d.documents.length > 0) {
    const rows = [...d.documents]
      .sort((a, b) => b.importance_score - a.importance_score || a.url.localeCompare(b.url))
      .slice(0, SHOWN_DOCUMENTS)
      .map((doc) => ({ ...pageRow(doc), label: doc.classification?.label }));
    lines.push('', table(rows, ['importance', 'status', 'depth', 'label', 'title', 'url'], { width }));
    if (d.documents_total > rows.length) lines.push(`… ${d.documents_total - rows.length} more (use --json or --out for all)`);
  }
  if (d.summary) lines.push('', 'Summary:', `  ${d.summary}`);
  if (d.smart_crawl) {
    const sc = d.smart_crawl;
    lines.push(
      '',
      `Smart crawl: ${sc.stats.total_nodes} URLs discovered, ${sc.stats.total_edges} links, coverage ${(sc.efficiency.coverage_ratio * 100).toFixed(0)}%, importance captured ${sc.efficiency.importance_captured}`,
    );
    if (sc.hubs[0]) lines.push(`  top hub: ${sc.hubs[0].url}`);
    if (sc.authorities[0]) lines.push(`  top authority: ${sc.authorities[0].url}`);
  }
  return lines.join('\n');
}
