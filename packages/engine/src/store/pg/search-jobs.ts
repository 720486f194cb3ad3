import { and, count, desc, eq } from 'drizzle-orm';
import type { SearchJobRecord, SearchJobsPort, SearchJobStatus } from '../ports/search.js';
import type { PgExecutor } from './executor.js';
import { searchJobs } from './tables/search.js';

/** Search jobs on PostgreSQL. */
export class PgSearchJobs implements SearchJobsPort {
  constructor(private readonly ex: PgExecutor) {}

  async insert(job: SearchJobRecord): Promise<void> {
    await this.ex.db.insert(searchJobs).values(job);
  }

  async get(id: string): Promise<SearchJobRecord | undefined> {
    const [row] = await this.ex.db.select().from(searchJobs).where(eq(searchJobs.id, id));
    return row;
  }

  async list(userId: string, status: SearchJobStatus | undefined, page: { limit: number; offset: number }): Promise<{ rows: SearchJobRecord[]; total: number }> {
    const where = and(eq(searchJobs.userId, userId), status ? eq(searchJobs.status, status) : undefined);
    const rows = await this.ex.db.select().from(searchJobs).where(where).orderBy(desc(searchJobs.createdAt), desc(searchJobs.id)).limit(page.limit).offset(page.offset);
    const [total] = await this.ex.db.select({ n: count() }).from(searchJobs).where(where);
    return { rows, total: total!.n };
  }

  async update(id: string, fields: Partial<Omit<SearchJobRecord, 'id'>>): Promise<void> {
    await this.ex.db.update(searchJobs).set(fields).where(eq(searchJobs.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.ex.db.delete(searchJobs).where(eq(searchJobs.id, id));
  }

  async countByStatus(userId: string): Promise<Partial<Record<SearchJobStatus, number>>> {
    const rows = await this.ex.db.select({ status: searchJobs.status, n: count() }).from(searchJobs).where(eq(searchJobs.userId, userId)).groupBy(searchJobs.status);
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }
}
