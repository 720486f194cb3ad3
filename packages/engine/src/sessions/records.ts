import type { ShareState } from '../accounts/schemas.js';
import { intentEffects } from '../search/intent.js';
import { top } from './context.js';
import type { SessionContextState } from './schemas.js';
import type { SessionContextSummaryValue, SessionOperationRecord, SessionRecord } from './schemas.js';
import type { OperationRow, SessionRow } from '../store/ports/sessions.js';

export type { OperationRow, SessionRow };

const SUMMARY_ENTRIES = 10;

export function toSessionRecord(row: SessionRow, share: ShareState): SessionRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    intent_context: row.intentContext,
    status: row.status,
    session_config: { ...row.config, max_operations: row.config.max_operations ?? null },
    metadata: row.metadata,
    operation_count: row.operationCount,
    ...share,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    last_activity_at: row.lastActivityAt,
    completed_at: row.completedAt,
    archived_at: row.archivedAt,
    archived_reason: row.archivedReason,
  };
}

export function toOperationRecord(row: OperationRow): SessionOperationRecord {
  return {
    id: row.id,
    seq: row.seq,
    kind: row.kind,
    status: row.status,
    query: row.query,
    urls: row.targetUrls,
    result_count: row.resultCount,
    result_urls: row.resultUrls,
    filtered_count: row.filteredCount,
    results_summary: row.resultSummary,
    credits: row.credits,
    resource_id: row.resourceId,
    error: row.error,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
  };
}

/** The context as agents and readers see it: the intent's effects plus the top of every counter. */
export function summarizeContext(row: SessionRow, urlsSeen: number): SessionContextSummaryValue {
  const state: SessionContextState = row.context;
  const intentType = row.metadata.intent?.type ?? null;
  const effects = intentEffects(intentType ?? undefined);
  return {
    intent_type: intentType,
    intent_context: row.intentContext,
    domain_context: row.metadata.domain_context ?? null,
    query_additions: effects.queryAdditions,
    boost_document_types: effects.boostDocumentTypes,
    recent_queries: state.recent_queries.slice(-SUMMARY_ENTRIES),
    domain_frequency: top(state.domains, SUMMARY_ENTRIES * 2),
    entities: top(state.entities, SUMMARY_ENTRIES * 2),
    keywords: top(state.keywords, SUMMARY_ENTRIES * 2),
    document_types: top(state.document_types, SUMMARY_ENTRIES),
    content_types: top(state.content_types, SUMMARY_ENTRIES),
    urls_seen: urlsSeen,
  };
}
