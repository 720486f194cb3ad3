import { and, asc, count, desc, eq, gte, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { SessionOperationKind } from '../../sessions/schemas.js';
import type { OperationEnd, OperationRow, SessionListFilter, SessionRow, SessionsPort } from '../ports/sessions.js';
import type { PgExecutor } from './executor.js';
import { sessionOperations, sessions, sessionSeenUrls } from './tables/sessions.js';

/** Sessions, their operations and seen URLs on PostgreSQL; a session's tags are a jsonb array in its metadata. */
export class PgSessions implements SessionsPort {
  constructor(private readonly ex: PgExecutor) {}

  private get db() {
    return this.ex.db;
  }

  async insert(row: SessionRow): Promise<void> {
    await this.db.insert(sessions).values(row);
  }

  async get(id: string): Promise<SessionRow | undefined> {
    const [row] = await this.db.select().from(sessions).where(eq(sessions.id, id));
    return row;
  }

  async list(filter: SessionListFilter, page: { limit: number; offset: number }): Promise<SessionRow[]> {
    return this.db.select().from(sessions).where(where(filter)).orderBy(desc(sessions.lastActivityAt), desc(sessions.id)).limit(page.limit).offset(page.offset);
  }

  async count(filter: SessionListFilter): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(sessions).where(where(filter));
    return row!.n;
  }

  async countOpen(userId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(sessions).where(and(eq(sessions.userId, userId), ne(sessions.status, 'archived')));
    return row!.n;
  }

  async update(id: string, fields: Partial<Omit<SessionRow, 'id'>>): Promise<void> {
    await this.db.update(sessions).set(fields).where(eq(sessions.id, id));
  }

  /** Operations and seen URLs go with it (foreign keys cascade). */
  async delete(id: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.id, id));
  }

  async archiveIdle(cutoff: string, at: string): Promise<number> {
    const archived = await this.db
      .update(sessions)
      .set({ status: 'archived', archivedAt: at, archivedReason: 'inactivity', updatedAt: at })
      .where(and(ne(sessions.status, 'archived'), lte(sessions.lastActivityAt, cutoff)));
    return archived.rowCount ?? 0;
  }

  beginOperation(op: Pick<OperationRow, 'id' | 'sessionId' | 'seq' | 'kind' | 'query' | 'targetUrls' | 'startedAt'>): Promise<void> {
    return this.ex.atomically(async () => {
      await this.db.insert(sessionOperations).values({ ...op, status: 'running' });
      await this.db
        .update(sessions)
        .set({ operationCount: sql`${sessions.operationCount} + 1`, lastActivityAt: op.startedAt, updatedAt: op.startedAt })
        .where(eq(sessions.id, op.sessionId));
    });
  }

  async getOperation(id: string): Promise<OperationRow | undefined> {
    const [row] = await this.db.select().from(sessionOperations).where(eq(sessionOperations.id, id));
    return row;
  }

  async setOperationResource(id: string, resourceId: string): Promise<void> {
    await this.db.update(sessionOperations).set({ resourceId }).where(eq(sessionOperations.id, id));
  }

  finishOperation(end: OperationEnd): Promise<void> {
    return this.ex.atomically(async () => {
      if (end.seenUrls.length > 0) {
        const seen = end.seenUrls.map((url) => ({ sessionId: end.sessionId, url, operationId: end.operationId, seenAt: end.at }));
        await this.db.insert(sessionSeenUrls).values(seen).onConflictDoNothing();
      }
      await this.db.update(sessionOperations).set({ ...end.fields, finishedAt: end.at }).where(eq(sessionOperations.id, end.operationId));
      await this.db.update(sessions).set({ context: end.context, lastActivityAt: end.at, updatedAt: end.at }).where(eq(sessions.id, end.sessionId));
    });
  }

  operations(sessionId: string): Promise<OperationRow[]> {
    return this.db.select().from(sessionOperations).where(eq(sessionOperations.sessionId, sessionId)).orderBy(asc(sessionOperations.seq));
  }

  async operationResources(sessionId: string, kinds: readonly SessionOperationKind[]): Promise<{ kind: SessionOperationKind; id: string }[]> {
    const rows = await this.db
      .select({ kind: sessionOperations.kind, id: sessionOperations.resourceId })
      .from(sessionOperations)
      .where(and(eq(sessionOperations.sessionId, sessionId), inArray(sessionOperations.kind, [...kinds])))
      .orderBy(asc(sessionOperations.seq));
    return rows.flatMap((r) => (r.id ? [{ kind: r.kind, id: r.id }] : []));
  }

  async seenUrls(sessionId: string): Promise<string[]> {
    const rows = await this.db.select({ url: sessionSeenUrls.url }).from(sessionSeenUrls).where(eq(sessionSeenUrls.sessionId, sessionId));
    return rows.map((r) => r.url);
  }

  async seenCount(sessionId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(sessionSeenUrls).where(eq(sessionSeenUrls.sessionId, sessionId));
    return row?.n ?? 0;
  }
}

function where(f: SessionListFilter): SQL | undefined {
  const filters: (SQL | undefined)[] = [
    'userId' in f.owner ? eq(sessions.userId, f.owner.userId) : f.owner.ids.length > 0 ? inArray(sessions.id, [...f.owner.ids]) : sql`false`,
    gte(sessions.lastActivityAt, f.activeSince),
  ];
  if (f.status) filters.push(eq(sessions.status, f.status));
  if (f.tag) filters.push(sql`${sessions.metadata} -> 'tags' ? ${f.tag}`);
  return and(...filters);
}
