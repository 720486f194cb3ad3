import { Command, InvalidArgumentError } from 'commander';
import { DOMAIN_CONTEXTS, INTENT_TYPES, SESSION_STATUSES } from '@wvr/engine/vocabulary';
import type { WvrClient } from '@wvr/sdk';
import { contextOf, withClient } from '../context.js';
import { describeSharing, shareBody, withShareOptions, type ShareFlags } from './share.js';
import { emit, table } from '../output/print.js';
import { commaList, nonNegativeInt, positiveInt } from './parse.js';

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string): T => {
    if ((values as readonly string[]).includes(value)) return value as T;
    throw new InvalidArgumentError(`use one of ${values.join(', ')}`);
  };


type SessionCreateBody = Parameters<WvrClient['sessions']['create']>[0];
type SessionListQuery = NonNullable<Parameters<WvrClient['sessions']['list']>[0]>;
type Intent = (typeof INTENT_TYPES)[number];
type Domain = (typeof DOMAIN_CONTEXTS)[number];

interface CreateOptions {
  description?: string;
  intentContext?: string;
  intent?: Intent;
  domain?: Domain;
  tag?: string[];
  maxOperations?: number;
}

export function sessionsCommand(): Command {
  const sessions = new Command('sessions').description('research sessions: group searches, crawls and asks, with shared context');

  sessions
    .command('create <name>')
    .description('start a session')
    .option('--description <text>', 'what the session is for')
    .option('--intent-context <text>', 'monitoring intent given to AI features')
    .option('--intent <type>', INTENT_TYPES.join(', '), oneOf(INTENT_TYPES))
    .option('--domain <context>', DOMAIN_CONTEXTS.join(', '), oneOf(DOMAIN_CONTEXTS))
    .option('--tag <tags>', 'tags, comma-separated or repeated', commaList)
    .option('--max-operations <n>', 'at most this many operations (1-100)', positiveInt)
    .action(async (name: string, opts: CreateOptions, command: Command) => {
      const ctx = contextOf(command);
      const metadata = {
        ...(opts.intent ? { intent: { type: opts.intent } } : {}),
        ...(opts.domain ? { domain_context: opts.domain } : {}),
        ...(opts.tag?.length ? { tags: opts.tag } : {}),
      };
      const body: SessionCreateBody = {
        name,
        ...(opts.description ? { description: opts.description } : {}),
        ...(opts.intentContext ? { intent_context: opts.intentContext } : {}),
        ...(Object.keys(metadata).length ? { metadata } : {}),
        ...(opts.maxOperations ? { session_config: { max_operations: opts.maxOperations } } : {}),
      };
      const created = await withClient(ctx, (client) => client.sessions.create(body));
      emit(ctx.output, created, (s) => `Session "${s.name}" (${s.id}) is ${s.status}.\nRun operations in it with --session ${s.id}.`);
    });

  sessions
    .command('list')
    .description('your sessions with recent activity (default: the last 7 days)')
    .option('--status <status>', SESSION_STATUSES.join(', '), oneOf(SESSION_STATUSES))
    .option('--tag <tag>', 'only sessions with this tag')
    .option('--days-back <days>', 'activity within this many days', positiveInt)
    .option('--include-shared', 'also sessions shared with your organizations')
    .option('--limit <n>', 'page size (1-100)', positiveInt)
    .option('--offset <n>', 'items to skip', nonNegativeInt)
    .action(async (opts: { status?: SessionListQuery['status']; tag?: string; daysBack?: number; includeShared?: boolean; limit?: number; offset?: number }, command: Command) => {
      const ctx = contextOf(command);
      const query: SessionListQuery = {
        status: opts.status,
        tag: opts.tag,
        days_back: opts.daysBack,
        include_shared: opts.includeShared,
        limit: opts.limit,
        offset: opts.offset,
      };
      const page = await withClient(ctx, (client) => client.sessions.list(query));
      const columns = ['id', 'name', 'status', 'operation_count', 'last_activity_at'];
      emit(ctx.output, page, (p) =>
        [
          table(p.data, columns),
          `${p.data.length} of ${p.total}`,
          ...(p.shared_sessions ? ['', 'Shared with you:', table(p.shared_sessions, columns)] : []),
        ].join('\n'),
      );
    });

  sessions
    .command('show <id>')
    .description('a session with its operations and context summary')
    .action(async (id: string, _opts, command: Command) => {
      const ctx = contextOf(command);
      const detail = await withClient(ctx, (client) => client.sessions.get(id));
      emit(ctx.output, detail, (s) => {
        const c = s.context_summary;
        const top = (items: { value: string; count: number }[]) => items.slice(0, 8).map((i) => `${i.value} (${i.count})`).join(', ') || '-';
        return [
          `${s.name} (${s.id})`,
          `status ${s.status}, ${s.operation_count} operations, access ${s.access_level}, last activity ${s.last_activity_at}`,
          ...(s.description ? [s.description] : []),
          '',
          `intent: ${c.intent_type ?? '-'}${c.intent_context ? ` — ${c.intent_context}` : ''}`,
          `recent queries: ${c.recent_queries.join(' | ') || '-'}`,
          `domains: ${top(c.domain_frequency)}`,
          `entities: ${top(c.entities)}`,
          `keywords: ${top(c.keywords)}`,
          `urls seen: ${c.urls_seen}`,
        ].join('\n');
      });
    });

  sessions
    .command('timeline <id>')
    .description('operations of a session in time order')
    .action(async (id: string, _opts, command: Command) => {
      const ctx = contextOf(command);
      const timeline = await withClient(ctx, (client) => client.sessions.timeline(id));
      emit(ctx.output, timeline, (t) =>
        table(
          t.data.map((o) => ({ ...o, target: o.query ?? o.urls.join(' ') })),
          ['seq', 'kind', 'status', 'target', 'result_count', 'filtered_count', 'credits', 'started_at'],
        ),
      );
    });

  for (const [name, description] of [
    ['complete', 'mark a session completed: it takes no new operations'],
    ['archive', 'archive a completed session'],
    ['delete', 'delete a session and all its operations'],
  ] as const) {
    sessions
      .command(`${name} <id>`)
      .description(description)
      .action(async (id: string, _opts, command: Command) => {
        const ctx = contextOf(command);
        const session = await withClient(ctx, (client) => client.sessions[name](id));
        emit(ctx.output, session, (s) => (name === 'delete' ? `Deleted session "${s.name}" (${s.id}).` : `Session "${s.name}" (${s.id}) is ${s.status}.`));
      });
  }

  withShareOptions(sessions.command('share <id>'), {
    public: 'anyone with the id may read it, without a token',
    org: 'members of this organization may read it (cascades to its crawls and searches)',
  }).action(async (id: string, opts: ShareFlags, command: Command) => {
    const ctx = contextOf(command);
    const shared = await withClient(ctx, (client) => client.sessions.share(id, shareBody(opts)));
    emit(ctx.output, shared, describeSharing);
  });

  return sessions;
}
