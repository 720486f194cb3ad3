import { setTimeout as sleep } from 'node:timers/promises';
import type { Principal } from '../accounts/schemas.js';
import type { InputOf, OutputOf } from '../core/operation.js';
import type { EngineOperation as Operation } from '../accounts/operation.js';
import { runOperation, splitInput, type RunOperationOptions } from './run.js';
import { operationGroups, operationsById, type OperationGroups, type OperationId, type OperationServices, type OperationsById } from './table.js';

/** How an embedder calls an operation. */
export interface CallOptions {
  /** Who calls; default the engine's local owner (every scope, the `local` plan), created on first use. */
  as?: Principal;
  /** Aborts long work: a sync crawl is aborted (fetched pages stay charged), an ask stops reading. */
  signal?: AbortSignal;
}

export interface WatchOptions extends CallOptions {
  /** How often to look, in ms of wall time; default 200. */
  intervalMs?: number;
}

/** Optional input when the operation needs no field. */
type Call<O> = {} extends InputOf<O>
  ? (input?: InputOf<O>, options?: CallOptions) => Promise<OutputOf<O>>
  : (input: InputOf<O>, options?: CallOptions) => Promise<OutputOf<O>>;

type Calls = { [G in keyof OperationGroups]: { [K in keyof OperationGroups[G]]: Call<OperationGroups[G][K]> } };

type CrawlProgress = OutputOf<OperationGroups['crawls']['progress']>;
type WorkflowExecution = OutputOf<OperationGroups['workflows']['executions']>['data'][number];

/** One typed call per operation, by capability, plus progress for long work. */
export type EngineOps = Omit<Calls, 'crawls' | 'workflows'> & {
  crawls: Calls['crawls'] & {
    /**
     * The crawl's progress (`progress`: status, stats and the best pages so far, none of their
     * content) each time its status or stats change, ending with its final state. For the documents,
     * page through `documents`. When the signal fires the crawl is aborted (fetched pages stay
     * charged) and the iteration throws the signal's reason.
     */
    watch(id: string, options?: WatchOptions): AsyncIterable<CrawlProgress>;
  };
  workflows: Calls['workflows'] & {
    /**
     * Each execution of the workflow that lands after watching began (scheduled or manual), until
     * the workflow is no longer active. The signal stops the watching, not the workflow.
     */
    watch(id: string, options?: WatchOptions): AsyncIterable<WorkflowExecution>;
  };
};

/** `engine.run(id, input, options)`: the same calls by operation id. */
export type RunById = <Id extends OperationId>(
  id: Id,
  ...args: {} extends InputOf<OperationsById[Id]>
    ? [input?: InputOf<OperationsById[Id]>, options?: CallOptions]
    : [input: InputOf<OperationsById[Id]>, options?: CallOptions]
) => Promise<OutputOf<OperationsById[Id]>>;

const FINISHED_CRAWL = new Set(['completed', 'failed', 'cancelled']);
const RUNNING_WORKFLOW = new Set(['active', 'planning']);

export function createOperationApi(
  services: OperationServices,
  defaultPrincipal: () => Promise<Principal>,
  runOptions: Pick<RunOperationOptions, 'validateOutput'>,
): { ops: EngineOps; run: RunById } {
  const call = async (operation: Operation, input: unknown = {}, options: CallOptions = {}) =>
    runOperation(services, operation, options.as ?? (await defaultPrincipal()), splitInput(operation, (input ?? {}) as Record<string, unknown>), {
      ...runOptions,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  const groups = Object.fromEntries(
    Object.entries(operationGroups).map(([group, ops]) => [
      group,
      Object.fromEntries(Object.entries(ops as Record<string, Operation>).map(([name, op]) => [name, (input?: unknown, options?: CallOptions) => call(op, input, options)])),
    ]),
  ) as unknown as Calls;

  async function* watchCrawl(id: string, options: WatchOptions = {}): AsyncIterable<CrawlProgress> {
    const { signal, ...caller } = options;
    // Watching is how an embedder follows long work, so aborting the watch aborts the crawl.
    const abort = () => void call(operationGroups.crawls.abort, { id }, caller).catch(() => undefined);
    signal?.addEventListener('abort', abort, { once: true });
    try {
      let last = '';
      for (;;) {
        const crawl = (await call(operationGroups.crawls.progress, { id }, caller)) as CrawlProgress;
        const seen = JSON.stringify([crawl.status, crawl.stats]);
        if (seen !== last) yield crawl;
        last = seen;
        if (FINISHED_CRAWL.has(crawl.status)) return;
        await sleep(options.intervalMs ?? 200, undefined, signal ? { signal } : {});
      }
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }

  async function* watchWorkflow(id: string, options: WatchOptions = {}): AsyncIterable<WorkflowExecution> {
    const seen = new Set<string>();
    for (let first = true; ; first = false) {
      const list = (await call(operationGroups.workflows.executions, { id, limit: 100 }, options)) as { data: WorkflowExecution[] };
      // Oldest first, and only those that land after watching began.
      for (const execution of [...list.data].reverse()) {
        if (seen.has(execution.id)) continue;
        seen.add(execution.id);
        if (!first) yield execution;
      }
      const workflow = (await call(operationGroups.workflows.get, { id }, options)) as { status: string };
      if (!RUNNING_WORKFLOW.has(workflow.status)) return;
      await sleep(options.intervalMs ?? 200, undefined, options.signal ? { signal: options.signal } : {});
    }
  }

  const ops = { ...groups, crawls: { ...groups.crawls, watch: watchCrawl }, workflows: { ...groups.workflows, watch: watchWorkflow } } as EngineOps;
  const run = ((id: string, input?: unknown, options?: CallOptions) => {
    const operation = operationsById[id];
    if (!operation) throw new TypeError(`There is no operation ${id}.`);
    return call(operation, input, options);
  }) as RunById;
  return { ops, run };
}
