import type { SessionConfigValue, SessionContextState, SessionMetadataValue, SessionOperationKind } from '../../sessions/schemas.js';
import type { SESSION_STATUSES } from '../../sessions/vocabulary.js';

type SessionStatus = (typeof SESSION_STATUSES)[number];

/** One session as stored. Times are ISO strings (they sort as time). */
export interface SessionRow {
  id: string;
  userId: string;
  name: string;
  description: string | null;
  intentContext: string | null;
  status: SessionStatus;
  config: SessionConfigValue;
  metadata: SessionMetadataValue;
  /** Accumulated from finished operations when accumulate_context is on. */
  context: SessionContextState;
  operationCount: number;
  createdAt: string;
  updatedAt: string;
  /** What the 7-day auto-archive measures from: creation, edits, transitions and operations. */
  lastActivityAt: string;
  completedAt: string | null;
  archivedAt: string | null;
  archivedReason: 'manual' | 'inactivity' | null;
}

/** One operation (search, crawl, ask) a session ran, as stored. */
export interface OperationRow {
  id: string;
  sessionId: string;
  /** 1, 2, 3 ... per session. */
  seq: number;
  kind: SessionOperationKind;
  status: 'running' | 'completed' | 'failed';
  query: string | null;
  targetUrls: string[];
  resultCount: number;
  filteredCount: number;
  /** The URLs the operation returned (after filtering), in result order, for the timeline. */
  resultUrls: string[];
  resultSummary: string | null;
  credits: number;
  resourceId: string | null;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

/** Which sessions a list reads: one user's own, or the given ids (sessions shared with the caller). */
export interface SessionListFilter {
  owner: { userId: string } | { ids: readonly string[] };
  /** Last activity at or after this time. */
  activeSince: string;
  status?: SessionStatus | undefined;
  /** `metadata.tags` holds this tag. */
  tag?: string | undefined;
}

/** How an operation ended, as `finishOperation` writes it. */
export interface OperationEnd {
  operationId: string;
  sessionId: string;
  fields: Pick<OperationRow, 'status' | 'resultCount' | 'resultUrls' | 'filteredCount' | 'resultSummary' | 'credits' | 'resourceId' | 'error'>;
  /** When it ended: the operation's finishedAt, its URLs' seenAt and the session's last activity. */
  at: string;
  /** URLs the operation returned: each becomes seen by the session (its first sighting is kept). */
  seenUrls: readonly string[];
  /** The session's context after this operation. */
  context: SessionContextState;
}

/** Sessions, the operations they ran and the URLs those returned. */
export interface SessionsPort {
  insert(row: SessionRow): Promise<void>;
  get(id: string): Promise<SessionRow | undefined>;
  /** Matching sessions, most recently active first. */
  list(filter: SessionListFilter, page: { limit: number; offset: number }): Promise<SessionRow[]>;
  count(filter: SessionListFilter): Promise<number>;
  /** Sessions of the user that are not archived (they count against the open-session limit). */
  countOpen(userId: string): Promise<number>;
  /** Writes the given fields of one session. */
  update(id: string, fields: Partial<Omit<SessionRow, 'id'>>): Promise<void>;
  /** The session, its operations and its seen URLs. */
  delete(id: string): Promise<void>;
  /** Archives (reason `inactivity`) every session not archived whose last activity is at or before `cutoff`; returns how many. */
  archiveIdle(cutoff: string, at: string): Promise<number>;

  /** Adds a running operation and counts it in its session (`operationCount`, activity at `startedAt`), in one write. */
  beginOperation(op: Pick<OperationRow, 'id' | 'sessionId' | 'seq' | 'kind' | 'query' | 'targetUrls' | 'startedAt'>): Promise<void>;
  getOperation(id: string): Promise<OperationRow | undefined>;
  setOperationResource(id: string, resourceId: string): Promise<void>;
  /** The operation's outcome, its seen URLs and the session's context and activity, in one write. */
  finishOperation(end: OperationEnd): Promise<void>;
  /** A session's operations in seq order. */
  operations(sessionId: string): Promise<OperationRow[]>;
  /** The resources (search jobs, crawls) operations of these kinds produced. */
  operationResources(sessionId: string, kinds: readonly SessionOperationKind[]): Promise<{ kind: SessionOperationKind; id: string }[]>;
  seenUrls(sessionId: string): Promise<string[]>;
  seenCount(sessionId: string): Promise<number>;
}
