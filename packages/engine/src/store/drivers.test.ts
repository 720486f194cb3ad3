import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostGatePort } from './ports/hosts.js';
import type { JobsPort } from './ports/jobs.js';
import type { SearchJobRecord, SearchJobsPort } from './ports/search.js';
import type { SessionRow, SessionsPort } from './ports/sessions.js';
import type { LedgerPort, LedgerRecord } from './ports/ledger.js';
import type { ClaimedSlot, SchedulesPort, WorkflowListFilter, WorkflowRecord, WorkflowsPort } from './ports/workflows.js';
import type { CrawlPort, Discovered, FrontierPort, NewCrawl, NewCrawlDocument } from './ports/crawl.js';
import { priorityOf, type FrontierBucket } from '../crawl/vocabulary.js';
import type { UsersPort } from './ports/users.js';
import type { ShareKey, SharesPort } from './ports/shares.js';
import type { User } from '../accounts/schemas.js';
import { openDatabase } from './sqlite/open.js';
import { createSqliteStore } from './sqlite/index.js';
import { PgExecutor } from './pg/executor.js';
import { PgHostGate } from './pg/hosts.js';
import { PgJobsPort } from './pg/jobs.js';
import { PgSearchJobs } from './pg/search-jobs.js';
import { PgSessions } from './pg/sessions.js';
import { PgLedger } from './pg/ledger.js';
import { PgSchedules, PgWorkflows } from './pg/workflows.js';
import { PgCrawl } from './pg/crawl.js';
import { PgUsers } from './pg/users.js';
import { PgShares } from './pg/shares.js';
import { usePostgres } from './pg/testing.js';

/** The ports both drivers implement today, with the store's transactions. */
interface Ports {
  jobs: JobsPort;
  workflows: WorkflowsPort;
  schedules: SchedulesPort;
  hosts: HostGatePort;
  sessions: SessionsPort;
  searchJobs: SearchJobsPort;
  ledger: LedgerPort;
  crawl: CrawlPort;
  users: UsersPort;
  shares: SharesPort;
  atomically<T>(fn: () => Promise<T>): Promise<T>;
}

const pg = usePostgres('drivers', { max: 4 });

const drivers: [string, () => Ports][] = [
  [
    'SQLite',
    () => {
      const { sqlite, db } = openDatabase(join(mkdtempSync(join(tmpdir(), 'wvr-drivers-')), 'wvr.db'));
      const store = createSqliteStore(sqlite, db);
      return { ...store, ledger: store.ledger, atomically: (fn) => store.atomically(fn) };
    },
  ],
  [
    'PostgreSQL',
    () => {
      const ex = new PgExecutor(pg.pool);
      return {
        jobs: new PgJobsPort(ex),
        workflows: new PgWorkflows(ex),
        schedules: new PgSchedules(ex),
        hosts: new PgHostGate(ex),
        ledger: new PgLedger(ex),
        sessions: new PgSessions(ex),
        searchJobs: new PgSearchJobs(ex),
        users: new PgUsers(ex),
        shares: new PgShares(ex),
        crawl: new PgCrawl(ex),
        atomically: (fn) => ex.atomically(fn),
      };
    },
  ],
];

let n = 0;
/** A workflow with a unique id (the PostgreSQL database is shared by the tests of this file). */
function workflow(fields: Partial<WorkflowRecord> = {}): WorkflowRecord {
  const at = `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`;
  return {
    id: `wf-${++n}-${Math.random().toString(36).slice(2, 8)}`,
    userId: 'u1',
    name: 'Price watch',
    description: null,
    mode: 'simple',
    workflowType: 'search',
    operationConfig: { query: 'headphones' },
    steps: null,
    intent: null,
    maxCreditsPerExecution: null,
    plan: null,
    stopCondition: { type: 'always' },
    maxExecutions: null,
    notificationConfig: null,
    sessionId: null,
    tags: [],
    interval: 'daily',
    intervalMinutes: null,
    cronExpression: null,
    scheduledFor: null,
    anchorMinute: null,
    timezone: 'UTC',
    status: 'active',
    statusReason: null,
    executionCount: 0,
    consecutiveFailures: 0,
    nextRunAt: null,
    lastRunAt: null,
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

/** A user with a unique id; the email is the caller's (the tests use unique ones). */
function user(email: string, fields: Partial<User> = {}): User {
  return { id: `user-${++n}-${Math.random().toString(36).slice(2, 8)}`, email, name: null, plan: 'free', createdAt: '2026-01-01T00:00:00.000Z', ...fields };
}

describe.each(drivers)('the store ports on %s', (_name, open) => {
  it('stores a workflow and reads it back field for field, JSON included', async () => {
    const { workflows } = open();
    const w = workflow({ tags: ['Audio', 'deals'], operationConfig: { query: 'héadphones', nested: { n: 1 } } });
    await workflows.insert(w);
    expect(await workflows.get(w.id)).toEqual(w);
    await workflows.update(w.id, { status: 'paused', statusReason: 'by hand' });
    expect(await workflows.get(w.id)).toMatchObject({ status: 'paused', statusReason: 'by hand', tags: ['Audio', 'deals'] });
  });

  it('lists by owner, sharing, status, case-insensitive search and tags, sorted and paged', async () => {
    const { workflows } = open();
    const user = `lister-${++n}`;
    const other = `other-${n}`;
    const a = workflow({ userId: user, name: 'Alpha monitor', tags: ['News'], createdAt: '2026-01-01T00:00:01.000Z' });
    const b = workflow({ userId: user, name: 'Beta', description: 'tracks ALPHA prices', tags: ['news', 'shop'], createdAt: '2026-01-01T00:00:02.000Z' });
    const c = workflow({ userId: user, name: 'Gamma', status: 'archived', createdAt: '2026-01-01T00:00:03.000Z' });
    const d = workflow({ userId: other, name: 'Delta 100%_off', createdAt: '2026-01-01T00:00:04.000Z' });
    for (const w of [a, b, c, d]) await workflows.insert(w);
    const base: WorkflowListFilter = { userId: user, sharedIds: [], scope: 'all', sortBy: 'created', sortOrder: 'asc', limit: 10, offset: 0 };
    const ids = async (f: Partial<WorkflowListFilter>) => (await workflows.list({ ...base, ...f })).rows.map((r) => r.id);
    expect(await ids({})).toEqual([a.id, b.id]);
    expect(await ids({ status: 'archived' })).toEqual([c.id]);
    expect(await ids({ search: 'alpha' })).toEqual([a.id, b.id]);
    expect(await ids({ tags: ['NEWS', 'shop'] })).toEqual([b.id]);
    expect(await ids({ sharedIds: [d.id] })).toEqual([a.id, b.id, d.id]);
    expect(await ids({ sharedIds: [d.id], scope: 'shared', search: '100%_' })).toEqual([d.id]);
    expect(await ids({ sharedIds: [d.id], scope: 'shared', search: '100%x' })).toEqual([]);
    expect(await ids({ sortOrder: 'desc', limit: 1, offset: 1 })).toEqual([a.id]);
    expect((await workflows.list({ ...base, limit: 1 })).total).toBe(2);
  });

  it('numbers executions per workflow, records one once, and reads recorded ones newest first', async () => {
    const { workflows } = open();
    const w = workflow();
    await workflows.insert(w);
    const at = '2026-01-02T00:00:00.000Z';
    const execution = (id: string, status: 'running' | 'completed' | 'failed') => ({ id, workflowId: w.id, userId: w.userId, trigger: 'manual' as const, slot: null, status, conditionMet: false, body: { id }, startedAt: at, finishedAt: at });
    const [e1, e2, e3] = [`${w.id}-e1`, `${w.id}-e2`, `${w.id}-e3`];
    // Appended at once: each gets its own number, in whichever order the two land.
    const [seq1, seq2] = await Promise.all([workflows.appendExecution(execution(e1, 'completed')), workflows.appendExecution(execution(e2, 'running'))]);
    expect([seq1, seq2].sort()).toEqual([1, 2]);
    expect((await workflows.runningExecutions()).map((e) => e.id)).toContain(e2);
    expect(await workflows.recordExecution(e2, { status: 'completed', conditionMet: true, body: { done: true }, finishedAt: at }, true)).toBe(true);
    expect(await workflows.recordExecution(e2, { status: 'failed', conditionMet: false, body: {}, finishedAt: at }, true)).toBe(false);
    expect(await workflows.appendExecution(execution(e3, 'running'))).toBe(3);
    expect(await workflows.markInterrupted(e3)).toBe(true);
    expect(await workflows.markInterrupted(e3)).toBe(false);
    const recorded = await workflows.recordedExecutions(w.id, { limit: 10, offset: 0 });
    expect(recorded.rows.map((e) => [e.seq, e.status])).toEqual([[3, 'failed'], [2, 'completed'], [1, 'completed']]);
    expect(recorded.total).toBe(3);
    // The completed one numbered last: e3 failed, and e1 and e2 are both completed by now.
    expect(await workflows.lastCompleted(w.id)).toEqual(seq2 > seq1 ? { id: e2, body: { done: true } } : { id: e1, body: { id: e1 } });
    await workflows.delete(w.id);
    expect(await workflows.get(w.id)).toBeUndefined();
    expect((await workflows.recordedExecutions(w.id, { limit: 10, offset: 0 })).total).toBe(0);
  });

  it('claims each due slot once, moving it on, and counts what is due', async () => {
    const { workflows, schedules } = open();
    const due = workflow({ nextRunAt: '2020-01-01T00:00:00.000Z' });
    const later = workflow({ nextRunAt: '2999-01-01T00:00:00.000Z' });
    const paused = workflow({ nextRunAt: '2020-01-01T00:00:00.000Z', status: 'paused' });
    for (const w of [due, later, paused]) await workflows.insert(w);
    const mine = (claimed: ClaimedSlot[]) => claimed.filter((c) => [due.id, later.id, paused.id].includes(c.workflow.id));
    const first = await schedules.claimDue('2021-01-01T00:00:00.000Z', 1_000, () => '2030-01-01T00:00:00.000Z');
    expect(mine(first.claimed).map((c) => [c.workflow.id, c.slot, c.workflow.nextRunAt])).toEqual([[due.id, '2020-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z']]);
    expect(mine((await schedules.claimDue('2021-01-01T00:00:00.000Z', 1_000, () => null)).claimed)).toEqual([]);
    expect(await schedules.dueCount('2021-01-01T00:00:00.000Z')).toBe(0);
    expect(await schedules.dueCount('2030-01-01T00:00:00.000Z')).toBeGreaterThanOrEqual(1);
  });

  it('keeps plan jobs', async () => {
    const { workflows } = open();
    const id = `plan-${++n}`;
    await workflows.insertPlanJob({ id, userId: 'u1', status: 'running', request: { intent: 'x' }, result: null, error: null, createdAt: '2026-01-01T00:00:00.000Z', completedAt: null });
    await workflows.finishPlanJob(id, { status: 'completed', result: { plan: [1] }, error: null, completedAt: '2026-01-01T00:00:01.000Z' });
    expect(await workflows.getPlanJob(id)).toMatchObject({ status: 'completed', result: { plan: [1] }, completedAt: '2026-01-01T00:00:01.000Z' });
  });

  it('a job: claimed once, its lease held only by its owner, its row locked for completion, rolled back with its transaction', async () => {
    const { jobs, atomically } = open();
    const id = `job-${++n}`;
    const job = { id, kind: `k${n}`, payload: { a: 1 }, status: 'queued' as const, attempts: 0, maxAttempts: 3, runAt: 1_000, lastError: null, result: null, createdAt: 1_000, finishedAt: null, owner: null, leaseUntil: null, cancelRequested: false, updatedAt: 1_000 };
    await jobs.add(job);
    const request = { owner: 'me', leases: { [job.kind]: 500 }, limit: 5, now: 2_000 };
    const [claimedA, claimedB] = await Promise.all([jobs.claimDue(request), jobs.claimDue({ ...request, owner: 'you' })]);
    expect([...claimedA.claimed, ...claimedB.claimed].map((j) => [j.id, j.attempts, j.status])).toEqual([[id, 1, 'running']]);
    const owner = claimedA.claimed.length > 0 ? 'me' : 'you';
    expect(await jobs.renewLease(id, 'stranger', 9_000, 2_100)).toBe('lost');
    expect(await jobs.renewLease(id, owner, 9_000, 2_100)).toBe('renewed');
    await expect(
      atomically(async () => {
        expect(await jobs.lockHeld(id, owner)).toBe('renewed');
        expect(await jobs.lockHeld(id, 'stranger')).toBe('lost');
        await jobs.settle(id, owner, { status: 'succeeded', result: { ok: 1 }, finishedAt: 2_200 }, 2_200);
        throw new Error('the effect failed');
      }),
    ).rejects.toThrow('the effect failed');
    expect(await jobs.get(id)).toMatchObject({ status: 'running', owner });
    expect(await jobs.requestCancel(id, 2_300)).toBe(true);
    expect(await atomically(() => jobs.lockHeld(id, owner))).toBe('cancel');
    expect(await jobs.settle(id, owner, { status: 'cancelled', finishedAt: 2_400 }, 2_400)).toBe(true);
    expect(await jobs.get(id)).toMatchObject({ status: 'cancelled', result: null, payload: { a: 1 } });
  });

  it('reserves request starts at an origin one delay apart, whoever asks', async () => {
    const { hosts } = open();
    const origin = `http://gate-${++n}.test`;
    const waits = await Promise.all([1, 2, 3].map(() => hosts.reserve(origin, 10_000)));
    // Three reservations made at about the same moment: now, one delay on, two delays on.
    expect(waits.sort((a, b) => a - b).map((w) => Math.round(w / 10_000))).toEqual([0, 1, 2]);
    expect(await hosts.reserve(`http://other-${n}.test`, 10_000)).toBe(0);
  });
  it('the ledger: reserve, use within the hold, commit, release once, refund; the balance is the sum', async () => {
    const { ledger, atomically } = open();
    const user = `payer-${++n}`;
    const at = '2026-01-01T00:00:00.000Z';
    const entry = (kind: LedgerRecord['kind'], amount: number, fields: Partial<LedgerRecord> = {}) => ({ id: `${user}-${++n}`, userId: user, kind, amount, reservationId: null, operation: 'test', note: null, period: null, createdAt: at, ...fields });
    // As the credits service reserves: the balance read and the hold in one transaction.
    const reserve = (id: string, amount: number) =>
      atomically(async () => {
        if ((await ledger.balance(user)) < amount) return false;
        await ledger.insertReservation({ id, userId: user, operation: 'test', amount, used: 0, status: 'open', createdAt: at });
        await ledger.appendEntry(entry('reserve', -amount, { reservationId: id }));
        return true;
      });
    const grant = await ledger.appendEntry(entry('grant', 10, { operation: null, period: '2026-01' }));
    expect(await ledger.hasPeriodGrant(user, '2026-01')).toBe(true);
    expect(await ledger.hasPeriodGrant(user, '2026-02')).toBe(false);
    expect(await ledger.lastPeriodGrantSeq(user)).toBe(grant.seq);

    const [a, b] = [`${user}-a`, `${user}-b`];
    expect(await reserve(a, 6)).toBe(true);
    expect(await reserve(b, 5)).toBe(false); // 4 left
    expect(await reserve(b, 4)).toBe(true);
    expect(await ledger.balance(user)).toBe(0);
    expect(await ledger.held(user)).toBe(10);

    expect(await ledger.useReserved(a, 4)).toBe('used');
    expect(await ledger.useReserved(a, 3)).toBe('over_budget');
    expect(await ledger.useReserved(`${user}-none`, 1)).toBe('missing');
    expect(await ledger.growReservation(a, 1)).toBe(true);
    await ledger.appendEntry(entry('reserve', -1, { reservationId: a }));
    expect(await ledger.useReserved(a, 3)).toBe('used');
    expect(await ledger.reservation(a)).toMatchObject({ userId: user, amount: 7, used: 7, status: 'open', closedAt: null });

    // Commit a (everything used: nothing back), release b once (all 4 back).
    expect(await ledger.closeReservation(a, 'committed', at)).toMatchObject({ status: 'committed', amount: 7, used: 7, closedAt: at });
    expect(await ledger.closeReservation(a, 'released', at)).toBeUndefined();
    expect(await ledger.useReserved(a, 1)).toBe('closed');
    expect(await ledger.growReservation(a, 1)).toBe(false);
    expect(await ledger.closeReservation(b, 'released', at)).toMatchObject({ status: 'released', amount: 4, used: 0 });
    await ledger.appendEntry(entry('release', 4, { reservationId: b }));
    expect(await ledger.closeReservation(b, 'released', at)).toBeUndefined();
    expect(await ledger.reservation(b)).toMatchObject({ status: 'released', closedAt: at });

    await ledger.appendEntry(entry('refund', 2));
    expect(await ledger.balance(user)).toBe(10 - 6 - 4 - 1 + 4 + 2);
    expect(await ledger.held(user)).toBe(0);
    expect(await ledger.spentSince(user, grant.seq)).toBe(6 + 4 + 1 - 4 - 2);
    const recent = await ledger.recentEntries(user, 3);
    expect(recent.map((e) => [e.kind, e.amount])).toEqual([['refund', 2], ['release', 4], ['reserve', -1]]);
    expect(recent[0]).toMatchObject({ userId: user, reservationId: null, operation: 'test', note: null, period: null, createdAt: at });
    expect(recent[0]!.seq).toBeGreaterThan(recent[1]!.seq);
    expect((await ledger.recentEntries(user, 100)).reduce((sum, e) => sum + e.amount, 0)).toBe(await ledger.balance(user));
  });

  it('sessions: listed by owner, status and tag; operations numbered, seen URLs kept once, all gone with the session', async () => {
    const { sessions } = open();
    const user = `researcher-${++n}`;
    const session = (id: string, fields: Partial<SessionRow> = {}): SessionRow => ({
      id, userId: user, name: id, description: null, intentContext: null, status: 'active',
      config: {} as SessionRow['config'], metadata: { tags: [] } as unknown as SessionRow['metadata'], context: {} as SessionRow['context'],
      operationCount: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', lastActivityAt: '2026-01-01T00:00:00.000Z',
      completedAt: null, archivedAt: null, archivedReason: null, ...fields,
    });
    const [a, b, c] = [`${user}-a`, `${user}-b`, `${user}-c`];
    await sessions.insert(session(a, { metadata: { tags: ['audio'] } as unknown as SessionRow['metadata'], lastActivityAt: '2026-01-03T00:00:00.000Z' }));
    await sessions.insert(session(b, { lastActivityAt: '2026-01-02T00:00:00.000Z' }));
    await sessions.insert(session(c, { status: 'archived' }));
    expect(await sessions.get(a)).toMatchObject({ id: a, metadata: { tags: ['audio'] } });
    const mine = { owner: { userId: user }, activeSince: '2025-01-01T00:00:00.000Z' };
    expect((await sessions.list(mine, { limit: 10, offset: 0 })).map((r) => r.id)).toEqual([a, b, c]);
    expect((await sessions.list({ ...mine, tag: 'audio' }, { limit: 10, offset: 0 })).map((r) => r.id)).toEqual([a]);
    expect(await sessions.count({ ...mine, status: 'archived' })).toBe(1);
    expect(await sessions.count({ owner: { ids: [b] }, activeSince: '2026-01-02T00:00:00.000Z' })).toBe(1);
    expect(await sessions.countOpen(user)).toBe(2);

    const at = '2026-01-04T00:00:00.000Z';
    await sessions.beginOperation({ id: `${a}-op1`, sessionId: a, seq: 1, kind: 'search', query: 'headphones', targetUrls: [], startedAt: at });
    await sessions.beginOperation({ id: `${a}-op2`, sessionId: a, seq: 2, kind: 'crawl', query: null, targetUrls: ['https://x.test/'], startedAt: at });
    const fields = { status: 'completed' as const, resultCount: 2, resultUrls: ['https://x.test/1', 'https://x.test/2'], filteredCount: 0, resultSummary: null, credits: 1, resourceId: 'crawl-1', error: null };
    await sessions.finishOperation({ operationId: `${a}-op2`, sessionId: a, fields, at, seenUrls: ['https://x.test/1', 'https://x.test/2'], context: {} as SessionRow['context'] });
    await sessions.finishOperation({ operationId: `${a}-op1`, sessionId: a, fields: { ...fields, resourceId: null }, at, seenUrls: ['https://x.test/2'], context: {} as SessionRow['context'] });
    expect((await sessions.get(a))?.operationCount).toBe(2);
    expect((await sessions.operations(a)).map((o) => [o.seq, o.kind, o.status])).toEqual([[1, 'search', 'completed'], [2, 'crawl', 'completed']]);
    expect(await sessions.operationResources(a, ['crawl'])).toEqual([{ kind: 'crawl', id: 'crawl-1' }]);
    expect((await sessions.seenUrls(a)).sort()).toEqual(['https://x.test/1', 'https://x.test/2']);
    expect(await sessions.seenCount(a)).toBe(2);

    expect(await sessions.archiveIdle('2026-01-02T12:00:00.000Z', at)).toBeGreaterThanOrEqual(1);
    expect(await sessions.get(b)).toMatchObject({ status: 'archived', archivedReason: 'inactivity' });
    await sessions.delete(a);
    expect(await sessions.get(a)).toBeUndefined();
    expect(await sessions.operations(a)).toEqual([]);
    expect(await sessions.seenCount(a)).toBe(0);
  });

  it('search jobs: newest first, by status, counted by status, updated and deleted', async () => {
    const { searchJobs } = open();
    const user = `searcher-${++n}`;
    const job = (id: string, createdAt: string, status: SearchJobRecord['status']): SearchJobRecord => ({
      id, userId: user, status, query: 'noise cancelling', request: { query: 'noise cancelling' }, sessionContext: null, provider: 'local',
      results: null, suggestedQueries: null, summary: null, credits: { consumed: 1 } as SearchJobRecord['credits'], error: null, createdAt, startedAt: null, completedAt: null,
    });
    await searchJobs.insert(job(`${user}-1`, '2026-01-01T00:00:00.000Z', 'completed'));
    await searchJobs.insert(job(`${user}-2`, '2026-01-02T00:00:00.000Z', 'running'));
    expect((await searchJobs.list(user, undefined, { limit: 10, offset: 0 })).rows.map((r) => r.id)).toEqual([`${user}-2`, `${user}-1`]);
    expect(await searchJobs.list(user, 'completed', { limit: 10, offset: 0 })).toMatchObject({ total: 1, rows: [{ id: `${user}-1`, credits: { consumed: 1 } }] });
    expect(await searchJobs.countByStatus(user)).toEqual({ completed: 1, running: 1 });
    await searchJobs.update(`${user}-2`, { status: 'completed', suggestedQueries: ['anc headphones'] });
    expect(await searchJobs.get(`${user}-2`)).toMatchObject({ status: 'completed', suggestedQueries: ['anc headphones'] });
    await searchJobs.delete(`${user}-1`);
    expect(await searchJobs.countByStatus(user)).toEqual({ completed: 1 });
  });
  it('users: ensured once per email (the first stored wins, also when two race), read by id and email, plan changed', async () => {
    const { users } = open();
    const email = `ada-${++n}@x.test`;
    const ada = user(email, { name: 'Ada' });
    expect(await users.ensure(ada)).toEqual(ada);
    expect(await users.ensure(user(email, { name: 'Someone else', plan: 'pro' }))).toEqual(ada);
    expect(await users.get(ada.id)).toEqual(ada);
    expect(await users.byEmail(email)).toEqual(ada);
    expect(await users.get(`missing-${n}`)).toBeUndefined();
    expect(await users.byEmail(`missing-${n}@x.test`)).toBeUndefined();
    await users.setPlan(ada.id, 'developer');
    expect(await users.get(ada.id)).toMatchObject({ plan: 'developer', name: 'Ada' });

    const raced = `race-${n}@x.test`;
    const [a, b] = await Promise.all([users.ensure(user(raced)), users.ensure(user(raced))]);
    expect(a.id).toBe(b.id);
    expect(await users.byEmail(raced)).toEqual(a);
  });

  it('organizations: created with their owner as member, members added once, listed in the order joined', async () => {
    const { users } = open();
    const [owner, member, stranger] = await Promise.all(['owner', 'member', 'stranger'].map((who) => users.ensure(user(`${who}-${++n}@x.test`))));
    const acme = { id: `org-${n}-a`, name: 'Acme', createdAt: '2026-01-01T00:00:00.000Z' };
    const labs = { id: `org-${n}-b`, name: 'Labs', createdAt: '2026-01-02T00:00:00.000Z' };
    await users.createOrganization(acme, owner!.id);
    await users.createOrganization(labs, owner!.id);
    await users.addMember(labs.id, member!.id, 'member', '2026-01-03T00:00:00.000Z');
    await users.addMember(acme.id, member!.id, 'member', '2026-01-04T00:00:00.000Z');
    await users.addMember(acme.id, member!.id, 'owner', '2026-01-05T00:00:00.000Z');
    expect(await users.isMember(acme.id, owner!.id)).toBe(true);
    expect(await users.isMember(acme.id, member!.id)).toBe(true);
    expect(await users.isMember(acme.id, stranger!.id)).toBe(false);
    expect(await users.organizationsOf(owner!.id)).toEqual([acme, labs]);
    expect(await users.organizationsOf(member!.id)).toEqual([labs, acme]);
    expect(await users.organizationsOf(stranger!.id)).toEqual([]);
  });

  it('shares: written field by field, read back, access by public link or organization, ids shared with a user per type', async () => {
    const { users, shares } = open();
    const [owner, colleague, outsider] = await Promise.all(['owner', 'colleague', 'outsider'].map((who) => users.ensure(user(`${who}-${++n}@x.test`))));
    const org = { id: `org-${n}`, name: 'Acme', createdAt: '2026-01-01T00:00:00.000Z' };
    const elsewhere = { id: `org-${n}-other`, name: 'Other', createdAt: '2026-01-01T00:00:00.000Z' };
    await users.createOrganization(org, owner!.id);
    await users.createOrganization(elsewhere, outsider!.id);
    await users.addMember(org.id, colleague!.id, 'member', '2026-01-01T00:00:00.000Z');
    const session = { type: 'session' as const, id: `session-${n}`, ownerUserId: owner!.id };
    const none = { publicLink: false, orgMember: false };

    expect(await shares.get(session)).toBeUndefined();
    expect(await shares.access(session, colleague!.id)).toEqual(none);
    await shares.put([session], { publicShare: true }, '2026-01-02T00:00:00.000Z');
    expect(await shares.get(session)).toEqual({
      resourceType: 'session', resourceId: session.id, ownerUserId: owner!.id, publicShare: true, sharedWithOrg: false,
      organizationId: null, parentType: null, parentId: null, updatedAt: '2026-01-02T00:00:00.000Z',
    });
    expect(await shares.access(session, null)).toEqual({ publicLink: true, orgMember: false });

    // Only the given fields change, and the owner stays whoever writes.
    await shares.put([{ ...session, ownerUserId: colleague!.id }], { sharedWithOrg: true, organizationId: org.id }, '2026-01-03T00:00:00.000Z');
    expect(await shares.get(session)).toMatchObject({ ownerUserId: owner!.id, publicShare: true, sharedWithOrg: true, organizationId: org.id, updatedAt: '2026-01-03T00:00:00.000Z' });
    expect(await shares.access(session, colleague!.id)).toEqual({ publicLink: true, orgMember: true });
    expect(await shares.access(session, outsider!.id)).toEqual({ publicLink: true, orgMember: false });
    expect(await shares.access(session, null)).toEqual({ publicLink: true, orgMember: false });
    await shares.put([session], { publicShare: false }, '2026-01-04T00:00:00.000Z');
    expect(await shares.access(session, outsider!.id)).toEqual(none);

    // Shared with an organization the reader is not in, or named without one: no org access.
    const foreign = { type: 'crawl' as const, id: `crawl-${n}-foreign`, ownerUserId: outsider!.id };
    const orgless = { type: 'crawl' as const, id: `crawl-${n}-orgless`, ownerUserId: outsider!.id };
    const crawl = { type: 'crawl' as const, id: `crawl-${n}`, ownerUserId: owner!.id };
    await shares.put([foreign], { sharedWithOrg: true, organizationId: elsewhere.id }, '2026-01-05T00:00:00.000Z');
    await shares.put([orgless], { sharedWithOrg: true }, '2026-01-05T00:00:00.000Z');
    await shares.put([crawl], { sharedWithOrg: true, organizationId: org.id }, '2026-01-05T00:00:00.000Z');
    expect(await shares.access(foreign, colleague!.id)).toEqual(none);
    expect(await shares.access(orgless, colleague!.id)).toEqual(none);

    expect(await shares.sharedWith(colleague!.id, 'session')).toEqual([session.id]);
    expect(await shares.sharedWith(colleague!.id, 'crawl')).toEqual([crawl.id]);
    expect(await shares.sharedWith(colleague!.id, 'workflow')).toEqual([]);
    expect(await shares.sharedWith(owner!.id, 'session')).toEqual([]);
    expect(await shares.sharedWith(outsider!.id, 'crawl')).toEqual([]);
    await shares.put([session], { sharedWithOrg: false, organizationId: null }, '2026-01-06T00:00:00.000Z');
    expect(await shares.sharedWith(colleague!.id, 'session')).toEqual([]);
  });

  it('shares: children linked to a parent in one write, detached when it is forgotten; a put rolls back with its transaction', async () => {
    const { shares, atomically } = open();
    const owner = `owner-${++n}`;
    const parent: ShareKey = { type: 'session', id: `session-${n}` };
    const children = [
      { type: 'crawl' as const, id: `crawl-${n}`, ownerUserId: owner },
      { type: 'search_job' as const, id: `job-${n}`, ownerUserId: owner },
    ];
    await shares.put([{ ...parent, ownerUserId: owner }], { sharedWithOrg: true, organizationId: 'org' }, '2026-01-01T00:00:00.000Z');
    await shares.put(children, { parentType: 'session', parentId: parent.id, sharedWithOrg: true, organizationId: 'org' }, '2026-01-01T00:00:00.000Z');
    await shares.put([], { publicShare: true }, '2026-01-01T00:00:00.000Z');
    const byId = (keys: ShareKey[]) => [...keys].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(await shares.children(parent))).toEqual(byId(children.map(({ type, id }) => ({ type, id }))));

    await shares.forget(parent);
    expect(await shares.get(parent)).toBeUndefined();
    expect(await shares.children(parent)).toEqual([]);
    expect(await shares.get(children[0]!)).toMatchObject({ parentType: null, parentId: null, sharedWithOrg: true, organizationId: 'org' });

    const late = { type: 'workflow' as const, id: `workflow-${n}`, ownerUserId: owner };
    await expect(
      atomically(async () => {
        await shares.put([late], { publicShare: true }, '2026-01-02T00:00:00.000Z');
        throw new Error('the request failed');
      }),
    ).rejects.toThrow('the request failed');
    expect(await shares.get(late)).toBeUndefined();
  });
});

/** A crawl row with a unique id. */
function crawl(fields: Partial<NewCrawl> = {}): NewCrawl {
  return {
    id: `crawl-${++n}-${Math.random().toString(36).slice(2, 8)}`,
    userId: 'u1',
    status: 'pending',
    config: { urls: ['https://a.test/'], nested: { n: 1 } },
    strategy: 'smart',
    maxDepth: 2,
    maxPages: 10,
    maxCredits: null,
    pricePerPage: 1,
    reservationId: 'r1',
    sessionId: null,
    runAt: 1_767_225_600_000,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

/** A link to `url` as the runner hands it over. */
const link = (url: string, fields: Partial<Discovered> = {}): Discovered => ({ url, depth: 1, bucket: 'detail', relevance: 0.2, anchor: 'a link', context: '', cash: 0.1, ...fields });
const never = () => 0;
/** One claim as the runner's batches make it: the best candidate of a bucket, or the shallowest oldest URL, claimed. */
async function take(f: FrontierPort, order: { bucket: FrontierBucket } | 'breadth_first') {
  const candidates = await f.candidates(order === 'breadth_first' ? 'breadth_first' : 'buckets', 1);
  const pick = order === 'breadth_first' ? candidates[0] : candidates.find((c) => c.bucket === order.bucket);
  return pick ? (await f.claim([pick]))[0] : undefined;
}

function doc(crawlId: string, url: string, seq: number, fields: Partial<NewCrawlDocument> = {}): NewCrawlDocument {
  return {
    crawlId, url, seq, finalUrl: `${url}?final`, statusCode: 200, contentType: 'text/html', depth: 1, title: 'X', description: null, language: 'en',
    publishedDate: null, text: `text of ${url}`, markdown: '# X', links: [{ url: 'https://a.test/y', text: 'y' }],
    metadata: { json_ld: [{ '@type': 'Product' }], content_fingerprint: `fp-${url}` }, extractedData: null, classification: null, summary: null,
    fromCache: true, credits: 1, inlinks: 2, anchors: ['an x'], fetchedAt: '2026-01-01T00:00:00.000Z', ...fields,
  };
}

describe.each(drivers)('the crawl port on %s', (_name, open) => {
  it('crawl rows: read back field for field, listed with the shared ones, newest first, paged and counted', async () => {
    const { crawl: crawls } = open();
    const user = `crawler-${++n}`;
    const a = crawl({ userId: user, createdAt: '2026-01-01T00:00:01.000Z' });
    const b = crawl({ userId: user, status: 'completed', createdAt: '2026-01-01T00:00:02.000Z' });
    const theirs = crawl({ userId: `other-${n}`, createdAt: '2026-01-01T00:00:03.000Z' });
    for (const c of [a, b, theirs]) await crawls.insert(c);
    expect(await crawls.get(a.id)).toEqual({
      ...a, pagesFetched: 0, pagesFailed: 0, pagesCached: 0, pagesSkipped: 0, pagesFiltered: 0, creditsUsed: 0,
      smartCrawl: null, summary: null, error: null, lastFailure: null, startedAt: null, completedAt: null,
    });
    const ids = async (f: { sharedIds?: string[]; status?: 'completed'; limit?: number; offset?: number }) => {
      const { rows, total } = await crawls.list({ userId: user, sharedIds: f.sharedIds ?? [], status: f.status, limit: f.limit ?? 10, offset: f.offset ?? 0 });
      return { ids: rows.map((r) => r.id), total };
    };
    expect(await ids({})).toEqual({ ids: [b.id, a.id], total: 2 });
    expect(await ids({ sharedIds: [theirs.id] })).toEqual({ ids: [theirs.id, b.id, a.id], total: 3 });
    expect(await ids({ status: 'completed' })).toEqual({ ids: [b.id], total: 1 });
    expect(await ids({ limit: 1, offset: 1 })).toEqual({ ids: [a.id], total: 2 });
  });

  it('status transitions are compare-and-set; counters add up in the run state', async () => {
    const { crawl: crawls, atomically } = open();
    const c = crawl();
    await crawls.insert(c);
    expect(await crawls.transition(c.id, ['completed'], { status: 'running' })).toBe(false);
    expect(await crawls.transition(c.id, ['pending'], { status: 'running', startedAt: '2026-01-01T00:01:00.000Z' })).toBe(true);
    // Two stoppers at once: one of them ends it.
    const stops = await Promise.all([1, 2].map(() => atomically(() => crawls.transition(c.id, ['pending', 'running'], { status: 'cancelled', completedAt: 'now' }))));
    expect(stops.sort()).toEqual([false, true]);
    await crawls.countFetched(c.id, 2, true);
    await crawls.countFetched(c.id, 1, false);
    await crawls.countFailed(c.id, 'https://a.test/x: HTTP 500');
    await crawls.countSkipped(c.id);
    await crawls.countFiltered(c.id);
    expect(await crawls.runState(c.id)).toEqual({ status: 'cancelled', pagesFetched: 2, pagesFailed: 1, pagesCached: 1, pricePerPage: 1, reservationId: 'r1', lastFailure: 'https://a.test/x: HTTP 500' });
    expect(await crawls.get(c.id)).toMatchObject({ creditsUsed: 3, pagesSkipped: 1, pagesFiltered: 1, startedAt: '2026-01-01T00:01:00.000Z', completedAt: 'now' });
    expect(await crawls.runState('no-such-crawl')).toBeUndefined();
  });

  it('discovers: a new URL is queued in discovery order; a known one gains an inlink, its new anchor, cash and the shallower depth', async () => {
    const { crawl: crawls } = open();
    const id = crawl().id;
    const f = crawls.frontier(id, true);
    const [x] = await f.discoverMany([link('https://a.test/x', { depth: 2, anchor: 'first', relevance: 0.4 })], never);
    expect(await f.get('https://a.test/x')).toMatchObject({ id: x, seq: 1, state: 'queued', inlinks: 1, anchors: ['first'], depth: 2, cash: 0.1 });
    // One batch, as a page's links come: a new anchor is rescored, a known one keeps the relevance, no anchor adds none.
    const rescored: string[][] = [];
    const ids = await f.discoverMany(
      [link('https://a.test/x', { depth: 1, anchor: 'second', cash: 0.3 }), link('https://a.test/y'), link('https://a.test/x', { depth: 3, anchor: 'first', cash: 0.2 }), link('https://a.test/x', { anchor: '', cash: 0.4 })],
      (url, anchors) => (rescored.push([url, ...anchors]), 0.9),
    );
    expect(ids).toEqual([x, expect.any(Number), x, x]);
    expect(rescored).toEqual([['https://a.test/x', 'first', 'second']]);
    const row = (await f.get('https://a.test/x'))!;
    expect(row).toMatchObject({ id: x, seq: 1, inlinks: 4, depth: 1, anchors: ['first', 'second'], relevance: 0.9 });
    expect(row.cash).toBeCloseTo(1);
    expect(row.priority).toBe(priorityOf({ relevance: 0.9, cash: row.cash, authority: 0, intent: true }));
    expect(await f.get('https://a.test/y')).toMatchObject({ id: ids[1], seq: 2 });
    expect(await f.known(['https://a.test/y', 'https://a.test/z'])).toEqual(new Set(['https://a.test/y']));
  });

  it('moves a URL waiting in exploration to detail when a detail link finds it, as relevant as that link says; a hub or detail URL keeps its bucket', async () => {
    const { crawl: crawls } = open();
    for (const scored of [true, false]) {
      const f = crawls.frontier(crawl().id, scored);
      const rescore = scored ? () => 0.05 : undefined;
      await f.discoverMany(
        [
          link('https://a.test/kept', { bucket: 'explore', relevance: 0, anchor: 'Part A' }),
          link('https://a.test/fresh', { bucket: 'explore', relevance: 0, anchor: 'Part B' }),
          link('https://a.test/hub', { bucket: 'hub', relevance: 0 }),
          link('https://a.test/detail', { relevance: 0.6 }),
          link('https://a.test/dull', { bucket: 'explore', relevance: 0 }),
        ],
        rescore,
      );
      // The same anchor again (SQLite: the upsert itself), a new one (the rescoring path), a hub, a detail URL, and
      // an exploration link that leaves an exploration URL where it is.
      await f.discoverMany(
        [
          link('https://a.test/kept', { relevance: 0.3, anchor: 'Part A' }),
          link('https://a.test/fresh', { relevance: 0.3, anchor: 'B, again' }),
          link('https://a.test/hub', { relevance: 0.3 }),
          link('https://a.test/detail', { relevance: 0.3 }),
          link('https://a.test/dull', { bucket: 'explore', relevance: 0.1 }),
        ],
        rescore,
      );
      for (const url of ['https://a.test/kept', 'https://a.test/fresh']) {
        const row = (await f.get(url))!;
        expect(row).toMatchObject({ bucket: 'detail', relevance: 0.3, inlinks: 2 });
        expect(row.priority).toBe(priorityOf({ relevance: 0.3, cash: row.cash, authority: 0, intent: scored }));
      }
      expect(await f.get('https://a.test/hub')).toMatchObject({ bucket: 'hub', relevance: 0 });
      expect(await f.get('https://a.test/detail')).toMatchObject({ bucket: 'detail', relevance: 0.6 });
      expect(await f.get('https://a.test/dull')).toMatchObject({ bucket: 'explore', relevance: 0 });
    }
  });

  it('keeps anchors to ten, pays no cash to a fetched URL, and numbers new URLs in order whatever was relinked between them', async () => {
    const { crawl: crawls } = open();
    const f = crawls.frontier(crawl().id, false);
    await f.discoverMany([link('https://a.test/x', { cash: 0.25, anchor: 'a0' })], never);
    expect(await f.bankCash('https://a.test/x')).toBe(0.25);
    await f.discoverMany(Array.from({ length: 12 }, (_, i) => link('https://a.test/x', { cash: 0.5, anchor: `a${i}` })), () => 0.5);
    await f.discoverMany([link('https://a.test/y')], never);
    const x = (await f.get('https://a.test/x'))!;
    expect(x).toMatchObject({ cash: 0, history: 0.25, inlinks: 13, state: 'done', seq: 1 });
    expect(x.anchors).toEqual(Array.from({ length: 10 }, (_, i) => `a${i}`));
    expect((await f.get('https://a.test/y'))!.seq).toBe(2);
    expect(await f.bankCash('https://a.test/unknown')).toBe(0);
  });

  it('without a scorer keeps a new anchor and the relevance as it was, up to ten anchors, in one batch as one by one', async () => {
    const { crawl: crawls } = open();
    const f = crawls.frontier(crawl().id, false);
    const [x] = await f.discoverMany([link('https://a.test/x', { depth: 3, anchor: 'a0', relevance: 0.4, cash: 0.25 })]);
    const ids = await f.discoverMany([
      ...Array.from({ length: 12 }, (_, i) => link('https://a.test/x', { depth: 2, anchor: `a${i}`, cash: 0.5 })),
      link('https://a.test/x', { anchor: '', cash: 0.25 }),
      link('https://a.test/y', { anchor: 'why' }),
    ]);
    expect(ids.slice(0, 13)).toEqual(Array.from({ length: 13 }, () => x));
    const row = (await f.get('https://a.test/x'))!;
    expect(row).toMatchObject({ seq: 1, inlinks: 14, depth: 1, relevance: 0.4, cash: 6.5, anchors: Array.from({ length: 10 }, (_, i) => `a${i}`) });
    expect(row.priority).toBe(priorityOf({ relevance: 0.4, cash: 6.5, authority: 0, intent: false }));
    expect(await f.get('https://a.test/y')).toMatchObject({ id: ids[13], seq: 2, anchors: ['why'], inlinks: 1 });
  });

  it('a fetched URL linked again, with a scorer or without, gains the inlink and a new anchor and keeps its cash at nothing', async () => {
    const { crawl: crawls } = open();
    for (const scored of [true, false]) {
      const f = crawls.frontier(crawl().id, scored);
      const [x] = await f.discoverMany([link('https://a.test/x', { depth: 2, anchor: 'first', cash: 0.25 })], never);
      await f.bankCash('https://a.test/x');
      const ids = await f.discoverMany([link('https://a.test/x', { anchor: 'first', cash: 0.5 }), link('https://a.test/x', { anchor: 'second', cash: 0.5 }), link('https://a.test/x', { anchor: '' })], () => 0.75);
      expect(ids).toEqual([x, x, x]);
      expect(await f.get('https://a.test/x')).toMatchObject({ id: x, seq: 1, state: 'done', inlinks: 4, anchors: ['first', 'second'], cash: 0, history: 0.25 });
      expect((await f.discoverMany([link('https://a.test/y')], never))[0]).not.toBe(x);
      expect((await f.get('https://a.test/y'))!.seq).toBe(2);
    }
  });

  it('keeps two crawls apart, each with its own priority blend', async () => {
    const { crawl: crawls } = open();
    const smart = crawls.frontier(crawl().id, true);
    const plain = crawls.frontier(crawl().id, false);
    for (const f of [smart, plain]) await f.discoverMany([link('https://a.test/x', { relevance: 0.8 }), link('https://a.test/x', { relevance: 0.8, cash: 0.2 })], never);
    expect((await smart.get('https://a.test/x'))!.priority).toBe(priorityOf({ relevance: 0.8, cash: 0.1 + 0.2, authority: 0, intent: true }));
    expect((await plain.get('https://a.test/x'))!.priority).toBe(priorityOf({ relevance: 0.8, cash: 0.1 + 0.2, authority: 0, intent: false }));
  });

  it('takes the seeds first, then the best of a bucket by priority, or the shallowest oldest URL breadth-first', async () => {
    const { crawl: crawls, atomically } = open();
    const f = crawls.frontier(crawl().id, true);
    await f.seed(['https://a.test/', 'https://b.test/#top', 'https://a.test', 'not a url']);
    expect((await f.get('https://a.test/'))!.cash).toBe(0.5);
    await f.discoverMany(
      [link('https://a.test/deep-relevant', { depth: 2, relevance: 0.9 }), link('https://a.test/shallow-dull', { depth: 1, relevance: 0 }), link('https://a.test/hub', { bucket: 'hub' })],
      never,
    );
    expect(await take(f, { bucket: 'seed' })).toMatchObject({ url: 'https://a.test/', state: 'fetching', bucket: 'seed', depth: 0 });
    expect((await f.get('https://a.test/'))!.state).toBe('fetching');
    expect((await take(f, { bucket: 'detail' }))!.url).toBe('https://a.test/deep-relevant');
    expect(await f.countsByBucket(['queued'])).toEqual({ seed: 1, hub: 1, detail: 1, explore: 0 });
    expect(await f.countsByBucket(['fetching', 'queued'])).toEqual({ seed: 2, hub: 1, detail: 2, explore: 0 });
    // Claimed inside a transaction, as the runner claims a batch: each URL once.
    const claimed = await atomically(async () => [await take(f, 'breadth_first'), await take(f, 'breadth_first'), await take(f, 'breadth_first'), await take(f, 'breadth_first')]);
    expect(claimed.map((r) => r?.url)).toEqual(['https://b.test/', 'https://a.test/shallow-dull', 'https://a.test/hub', undefined]);
    await f.requeueInFlight();
    expect(await f.countsByBucket(['queued'])).toEqual({ seed: 2, hub: 1, detail: 2, explore: 0 });
  });

  it('offers candidates a bucket at a time or breadth-first, unclaimed until they are claimed', async () => {
    const { crawl: crawls } = open();
    const id = crawl().id;
    const f = crawls.frontier(id, true);
    await f.seed(['https://a.test/']);
    await f.discoverMany(
      [
        link('https://a.test/d1', { depth: 2, relevance: 0.9 }),
        link('https://a.test/d2', { depth: 1, relevance: 0.5 }),
        link('https://a.test/d3', { depth: 1, relevance: 0.1 }),
        link('https://a.test/hub', { bucket: 'hub' }),
      ],
      never,
    );
    const offered = await f.candidates('buckets', 2);
    expect(offered.map((r) => [r.bucket, r.url])).toEqual([
      ['seed', 'https://a.test/'],
      ['hub', 'https://a.test/hub'],
      ['detail', 'https://a.test/d1'],
      ['detail', 'https://a.test/d2'],
    ]);
    expect(offered.every((r) => r.state === 'queued')).toBe(true);
    expect((await f.candidates('breadth_first', 3)).map((r) => r.url)).toEqual(['https://a.test/', 'https://a.test/d2', 'https://a.test/d3']);
    const claimed = await f.claim([offered[0]!, offered[2]!]);
    expect(claimed.map((r) => [r.url, r.state])).toEqual([
      ['https://a.test/', 'fetching'],
      ['https://a.test/d1', 'fetching'],
    ]);
    expect((await f.get('https://a.test/d1'))!.state).toBe('fetching');
    expect(await f.countsByBucket(['queued'])).toEqual({ seed: 0, hub: 1, detail: 2, explore: 0 });
    expect(await f.claim([])).toEqual([]);
    expect(await f.candidates('buckets', 0)).toEqual([]);
  });

  it('never hands out URLs seen before or covered; covering a queued URL drops it, a fetched one stays fetched', async () => {
    const { crawl: crawls } = open();
    const c = crawl();
    const f = crawls.frontier(c.id, false);
    await f.seed(['https://a.test/']);
    await f.discoverMany([link('https://a.test/queued'), link('https://a.test/fetched')], never);
    await f.markSeen(['https://a.test/', 'https://a.test/seen#x', 'https://a.test/seen']);
    await f.markCovered('https://a.test/copy', 1);
    await f.markCovered('https://a.test/queued', 1);
    await f.bankCash('https://a.test/fetched');
    await f.markCovered('https://a.test/fetched', 1);
    expect(await f.get('https://a.test/')).toMatchObject({ state: 'queued', bucket: 'seed' });
    expect(await f.get('https://a.test/seen')).toMatchObject({ state: 'seen', cash: 0, inlinks: 0, anchors: [], seq: 4 });
    expect(await f.get('https://a.test/copy')).toMatchObject({ state: 'duplicate', depth: 1, seq: 5 });
    expect((await f.get('https://a.test/queued'))!.state).toBe('duplicate');
    expect((await f.get('https://a.test/fetched'))!.state).toBe('done');
    expect(await crawls.queuedCount(c.id)).toBe(1);
    expect((await take(f, 'breadth_first'))!.url).toBe('https://a.test/');
    expect(await take(f, 'breadth_first')).toBeUndefined();
    // The next new URL follows the last one: neither a known seen URL nor a known covered one took a number.
    await f.discoverMany([link('https://a.test/new')], never);
    expect((await f.get('https://a.test/new'))!.seq).toBe(6);
  });

  it('stores each link once with its region and reads the weighted graph back by row id, from a second handle too', async () => {
    const { crawl: crawls } = open();
    const id = crawl().id;
    const f = crawls.frontier(id, false);
    const [a, b, privacy, about] = await f.discoverMany([link('https://a.test/a'), link('https://a.test/b'), link('https://a.test/privacy'), link('https://a.test/about')], never);
    expect(await f.addEdges('https://a.test/a', [{ url: 'https://a.test/b', region: 'main' }, { url: 'https://a.test/privacy', region: 'footer' }, { url: 'https://a.test/b', region: 'nav' }])).toEqual([true, true, false]);
    expect(await f.addEdges('https://a.test/a', [{ url: 'https://a.test/b', region: 'footer' }])).toEqual([false]);
    expect(await f.addEdges('https://a.test/b', [{ url: 'https://a.test/about', region: 'aside' }])).toEqual([true]);
    expect(await f.addEdges('https://a.test/b', [])).toEqual([]);
    const weights = { main: 1, aside: 0.5, nav: 0.1, header: 0.1, footer: 0.1 };
    const edges = await f.edgeIds(weights);
    // The drivers list edges in no particular order.
    const triples = (e: typeof edges) => e.from.map((from, i) => `${from} -> ${e.to[i]}: ${e.weight[i]}`).sort();
    expect(triples(edges)).toEqual([`${a} -> ${b}: 1`, `${a} -> ${privacy}: 0.1`, `${b} -> ${about}: 0.5`].sort());
    expect(triples(await crawls.frontier(id, false).edgeIds(weights))).toEqual(triples(edges));
    expect(await f.urlsOf([about!, b!, 987_654_321])).toEqual(new Map([[about, 'https://a.test/about'], [b, 'https://a.test/b']]));
    expect(await f.urlsOf([])).toEqual(new Map());
    const visited = new Map<number, string>();
    await f.forEachUrl((rowId, url) => visited.set(rowId, url));
    expect(visited).toEqual(new Map([[a, 'https://a.test/a'], [b, 'https://a.test/b'], [privacy, 'https://a.test/privacy'], [about, 'https://a.test/about']]));
  });

  it('lifts queued URLs by their authority, and sums the graph up for the report without covered and seen URLs', async () => {
    const { crawl: crawls } = open();
    const f = crawls.frontier(crawl().id, false);
    await f.seed(['https://a.test/']);
    const [, y] = await f.discoverMany([link('https://a.test/x', { cash: 0.4 }), link('https://a.test/y', { cash: 0.001 })], never);
    await f.markCovered('https://a.test/copy', 1);
    await f.markSeen(['https://a.test/old']);
    const before = (await f.get('https://a.test/y'))!.priority;
    await f.applyAuthority((rowId) => (rowId === y ? 1 : 0));
    expect(await f.get('https://a.test/y')).toMatchObject({ authority: 1, priority: priorityOf({ relevance: 0.2, cash: 0.001, authority: 1, intent: false }) });
    expect((await f.get('https://a.test/y'))!.priority).toBeGreaterThan(before);
    expect((await f.get('https://a.test/x'))!.authority).toBe(0);
    await take(f, { bucket: 'seed' });
    await f.bankCash('https://a.test/');
    expect(await f.totals()).toEqual({ nodes: 3, fetched: 1, banked: 1 });
    expect(await f.mass()).toBeCloseTo(1.401);
    expect((await f.heaviest(2)).map((h) => h.url)).toEqual(['https://a.test/', 'https://a.test/x']);
    expect(await f.heaviest(1)).toEqual([{ url: 'https://a.test/', weight: 1, inlinks: 0 }]);
  });

  it('documents: stored once, paged in crawl order or by importance, counted, classified, scored against their frontier nodes, summarised', async () => {
    const { crawl: crawls } = open();
    const id = crawl().id;
    const f = crawls.frontier(id, false);
    const [x] = await f.discoverMany([link('https://a.test/x', { anchor: 'an x', cash: 0.25 })], never);
    const first = doc(id, 'https://a.test/x', 3, { classification: { label: 'product', confidence: 0.9 }, extractedData: { extracted_data: { price: 1 } } });
    await crawls.insertDocument(first);
    await crawls.insertDocument({ ...first, title: 'a second write is ignored' });
    await crawls.insertDocument(doc(id, 'https://a.test/orphan', 1, { fromCache: false, metadata: { kind: 'pdf', content_fingerprint: null } }));
    await crawls.insertDocument(doc(id, 'https://a.test/z', 2));
    expect(await crawls.documentCount(id)).toBe(3);
    const all = await crawls.documents(id, { order: 'crawl' });
    expect(all.map((d) => d.url)).toEqual(['https://a.test/orphan', 'https://a.test/z', 'https://a.test/x']);
    expect(all[2]).toEqual({ ...first, importance: 0, hubScore: 0, authorityScore: 0, outlinks: 0 });
    expect(all[0]!.fromCache).toBe(false);
    expect(await crawls.classifications(id)).toEqual([{ url: 'https://a.test/x', classification: { label: 'product', confidence: 0.9 } }]);
    expect((await crawls.fingerprints(id)).sort()).toEqual(['fp-https://a.test/x', 'fp-https://a.test/z']);

    const nodes = (await crawls.documentNodes(id)).sort((p, q) => p.url.localeCompare(q.url));
    expect(nodes[0]).toMatchObject({ url: 'https://a.test/orphan', node: null, weight: 0, nodeInlinks: 0, nodeAnchors: [] });
    expect(nodes[1]).toMatchObject({ url: 'https://a.test/x', node: x, weight: 0.25, nodeInlinks: 1, nodeAnchors: ['an x'], anchorCount: 1 });
    await crawls.setScores(id, [
      { url: 'https://a.test/x', importance: 0.5, hubScore: 0.1, authorityScore: 1, inlinks: 4, outlinks: 7, anchors: ['a', 'b'] },
      { url: 'https://a.test/z', importance: 0.5, hubScore: 0, authorityScore: 0, inlinks: 0, outlinks: 0, anchors: [] },
    ]);
    await crawls.setScores(id, []);
    expect((await crawls.documents(id, { order: 'crawl' }))[2]).toMatchObject({ importance: 0.5, hubScore: 0.1, authorityScore: 1, inlinks: 4, outlinks: 7, anchors: ['a', 'b'] });
    // By importance, ties in crawl order; a page of keys, then its rows.
    expect((await crawls.documents(id, { order: 'importance', limit: 2, offset: 0 })).map((d) => d.url)).toEqual(['https://a.test/z', 'https://a.test/x']);
    expect((await crawls.documents(id, { order: 'importance', limit: 2, offset: 2 })).map((d) => d.url)).toEqual(['https://a.test/orphan']);
    expect(await crawls.documents(id, { order: 'crawl', limit: 5, offset: 5 })).toEqual([]);
    // A progress read: the same ranking, each page by name and score only.
    expect(await crawls.bestPages(id, 2)).toEqual([
      { url: 'https://a.test/z', finalUrl: 'https://a.test/z?final', title: 'X', statusCode: 200, depth: 1, importance: 0.5 },
      { url: 'https://a.test/x', finalUrl: 'https://a.test/x?final', title: 'X', statusCode: 200, depth: 1, importance: 0.5 },
    ]);
    expect((await crawls.bestPages(id, 10)).map((d) => d.url)).toEqual(['https://a.test/z', 'https://a.test/x', 'https://a.test/orphan']);
    expect(await crawls.bestPages(crawl().id, 10)).toEqual([]);
    expect((await crawls.summaries(id))[0]).toEqual({ url: 'https://a.test/x', title: 'X', text: 'text of https://a.test/x', summary: null });
  });
});
