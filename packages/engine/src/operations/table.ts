import { z } from 'zod';
import { accountOperations, tokenOperations } from '../accounts/operations.js';
import { askOperations } from '../ask/operations.js';
import { brandOperations } from '../brand/operations.js';
import { API_VERSION, ENGINE_VERSION } from '../core/options.js';
import { crawlOperations } from '../crawl/operations.js';
import { mapOperations } from '../map/operations.js';
import { creditOperations } from '../credits/operations.js';
import { extractionOperations } from '../extract/operations.js';
import { monitorOperations } from '../monitors/operations.js';
import { webhookOperations } from '../notify/operations.js';
import { searchOperations } from '../search/operations.js';
import { sessionOperations } from '../sessions/operations.js';
import { workflowOperations } from '../workflows/operations.js';
import { defineOperation } from '../accounts/operation.js';
import type { EngineOperation as Operation } from '../accounts/operation.js';

const Health = z.object({ status: z.literal('ok'), version: z.string(), api_version: z.string() }).meta({ id: 'Health' });

const metaOperations = {
  health: defineOperation({
    scope: 'public',
    tag: 'meta',
    id: 'health',
    summary: 'Liveness and versions',
    output: Health,
    run: () => ({ status: 'ok' as const, version: ENGINE_VERSION, api_version: API_VERSION }),
  }),
};

/**
 * Every operation of the product, grouped by capability. A new capability declares its
 * `operations.ts` and adds it here; the server, MCP, the SDK and `engine.ops` follow.
 */
export const operationGroups = {
  meta: metaOperations,
  tokens: tokenOperations,
  account: accountOperations,
  credits: creditOperations,
  webhooks: webhookOperations,
  brand: brandOperations,
  asks: askOperations,
  sessions: sessionOperations,
  monitors: monitorOperations,
  workflows: workflowOperations,
  search: searchOperations,
  extraction: extractionOperations,
  crawls: crawlOperations,
  map: mapOperations,
};

export type OperationGroups = typeof operationGroups;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** What the operations run over, all together: the engine must hand every operation the services it names. */
export type OperationServices = UnionToIntersection<
  { [G in keyof OperationGroups]: { [K in keyof OperationGroups[G]]: ServicesOf<OperationGroups[G][K]> }[keyof OperationGroups[G]] }[keyof OperationGroups]
>;
type ServicesOf<O> = O extends { run: (services: infer S, ...rest: never[]) => unknown } ? (unknown extends S ? {} : S) : never;
type AnyOperation = { [G in keyof OperationGroups]: OperationGroups[G][keyof OperationGroups[G]] }[keyof OperationGroups];
/** Each operation by its id ('createCrawl'), typed. */
export type OperationsById = { [O in AnyOperation as O extends { id: infer Id extends string } ? Id : never]: O };
export type OperationId = keyof OperationsById;

export const operationsById: Readonly<Record<string, Operation>> = Object.fromEntries(
  Object.values(operationGroups).flatMap((group) => Object.values(group as Record<string, Operation>).map((op) => [op.id, op])),
);
