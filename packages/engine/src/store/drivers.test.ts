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
    expect(await Promise.all([workflows.appendExecution(execution(e1, 'completed')), workflows.appendExecution(execution(e2, 'running'))]).then((s) => s.sort())).toEqual([1, 2]);
    expect((await workflows.runningExecutions()).map((e) => e.id)).toContain(e2);
    expect(await workflows.recordExecution(e2, { status: 'completed', conditionMet: true, body: { done: true }, finishedAt: at }, true)).toBe(true);
    expect(await workflows.recordExecution(e2, { status: 'failed', conditionMet: false, body: {}, finishedAt: at }, true)).toBe(false);
    expect(await workflows.appendExecution(execution(e3, 'running'))).toBe(3);
    expect(await workflows.markInterrupted(e3)).toBe(true);
    expect(await workflows.markInterrupted(e3)).toBe(false);
    const recorded = await workflows.recordedExecutions(w.id, { limit: 10, offset: 0 });
    expect(recorded.rows.map((e) => [e.seq, e.status])).toEqual([[3, 'failed'], [2, 'completed'], [1, 'completed']]);
    expect(recorded.total).toBe(3);
    expect(await workflows.lastCompleted(w.id)).toEqual({ id: e2, body: { done: true } });
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
