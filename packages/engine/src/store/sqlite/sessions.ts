import type Database from 'better-sqlite3';
import { and, asc, count, desc, eq, gte, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from './open.js';
import type { SessionOperationKind } from '../../sessions/schemas.js';
import type { OperationEnd, OperationRow, SessionListFilter, SessionRow } from '../ports/sessions.js';
import { sessionOperations, sessions, sessionSeenUrls } from './tables/sessions.js';

/** Sessions, their operations and seen URLs: today's drizzle statements, `json_each` for tags. */
export class SqliteSessions {
  constructor(
    private readonly sqlite: Database.Database,
    private readonly db: Db,
  ) {}

  insert(row: SessionRow): void {
    this.db.insert(sessions).values(row).run();
  }

  get(id: string): SessionRow | undefined {
    return this.db.select().from(sessions).where(eq(sessions.id, id)).get();
  }

  list(filter: SessionListFilter, page: { limit: number; offset: number }): SessionRow[] {
    return this.db
      .select()
      .from(sessions)
      .where(where(filter))
      .orderBy(desc(sessions.lastActivityAt), desc(sessions.id))
      .limit(page.limit)
      .offset(page.offset)
      .all();
  }

  count(filter: SessionListFilter): number {
    return this.db.select({ n: count() }).from(sessions).where(where(filter)).get()!.n;
  }

  countOpen(userId: string): number {
    return this.db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.status, 'archived')))
      .get()!.n;
  }

  update(id: string, fields: Partial<Omit<SessionRow, 'id'>>): void {
    this.db.update(sessions).set(fields).where(eq(sessions.id, id)).run();
  }

  /** Operations and seen URLs go with it (foreign keys cascade). */
  delete(id: string): void {
    this.db.delete(sessions).where(eq(sessions.id, id)).run();
  }

  archiveIdle(cutoff: string, at: string): number {
    return this.db
      .update(sessions)
      .set({ status: 'archived', archivedAt: at, archivedReason: 'inactivity', updatedAt: at })
      .where(and(ne(sessions.status, 'archived'), lte(sessions.lastActivityAt, cutoff)))
      .run().changes;
  }

  beginOperation(op: Pick<OperationRow, 'id' | 'sessionId' | 'seq' | 'kind' | 'query' | 'targetUrls' | 'startedAt'>): void {
    this.sqlite
      .transaction(() => {
        this.db.insert(sessionOperations).values({ ...op, status: 'running' }).run();
        this.db
          .update(sessions)
          .set({ operationCount: sql`${sessions.operationCount} + 1`, lastActivityAt: op.startedAt, updatedAt: op.startedAt })
          .where(eq(sessions.id, op.sessionId))
          .run();
      })
      .immediate();
  }

  getOperation(id: string): OperationRow | undefined {
    return this.db.select().from(sessionOperations).where(eq(sessionOperations.id, id)).get();
  }

  setOperationResource(id: string, resourceId: string): void {
    this.db.update(sessionOperations).set({ resourceId }).where(eq(sessionOperations.id, id)).run();
  }

  finishOperation(end: OperationEnd): void {
    this.sqlite
      .transaction(() => {
        for (const url of end.seenUrls) {
          this.db.insert(sessionSeenUrls).values({ sessionId: end.sessionId, url, operationId: end.operationId, seenAt: end.at }).onConflictDoNothing().run();
        }
        this.db
          .update(sessionOperations)
          .set({ ...end.fields, finishedAt: end.at })
          .where(eq(sessionOperations.id, end.operationId))
          .run();
        this.db.update(sessions).set({ context: end.context, lastActivityAt: end.at, updatedAt: end.at }).where(eq(sessions.id, end.sessionId)).run();
      })
      .immediate();
  }

  operations(sessionId: string): OperationRow[] {
    return this.db.select().from(sessionOperations).where(eq(sessionOperations.sessionId, sessionId)).orderBy(asc(sessionOperations.seq)).all();
  }

  operationResources(sessionId: string, kinds: readonly SessionOperationKind[]): { kind: SessionOperationKind; id: string }[] {
    return this.db
      .select({ kind: sessionOperations.kind, id: sessionOperations.resourceId })
      .from(sessionOperations)
      .where(and(eq(sessionOperations.sessionId, sessionId), inArray(sessionOperations.kind, [...kinds])))
      .all()
      .flatMap((r) => (r.id ? [{ kind: r.kind, id: r.id }] : []));
  }

  seenUrls(sessionId: string): string[] {
    return this.db
      .select({ url: sessionSeenUrls.url })
      .from(sessionSeenUrls)
      .where(eq(sessionSeenUrls.sessionId, sessionId))
      .all()
      .map((r) => r.url);
  }

  seenCount(sessionId: string): number {
    return this.db.select({ n: count() }).from(sessionSeenUrls).where(eq(sessionSeenUrls.sessionId, sessionId)).get()?.n ?? 0;
  }
}

function where(f: SessionListFilter): SQL | undefined {
  const filters: (SQL | undefined)[] = [
    'userId' in f.owner ? eq(sessions.userId, f.owner.userId) : inArray(sessions.id, [...f.owner.ids]),
    gte(sessions.lastActivityAt, f.activeSince),
  ];
  if (f.status) filters.push(eq(sessions.status, f.status));
  if (f.tag) filters.push(sql`exists (select 1 from json_each(${sessions.metadata}, '$.tags') where value = ${f.tag})`);
  return and(...filters);
}
