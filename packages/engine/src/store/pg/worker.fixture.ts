// Test support: one worker process on a shared PostgreSQL (forked by jobs.test.ts and slots.test.ts).
// `jobs URL leaseMs pollMs [stallAfter]`: runs the queue until killed or told to stop; every job writes its side
// effect through ctx.complete, in the same transaction as its success. With stallAfter, the worker wedges once it has
// done that many jobs: every job it takes from then on hangs, holding its claim (and renewing its lease) until the
// process is killed, and it tells the parent of the first such job ({ wedged: jobId }). `slots URL slots...`: claims
// every slot of every workflow through the schedules port and reports what it won. `ledger URL user`: on the parent's
// go, makes 50 concurrent 1-credit reservations as the credits service does (read the balance, then debit, in one
// transaction) and reports how many were granted. Messages go to the parent over IPC.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock } from '../../core/clock.js';
import { cryptoRandom } from '../../core/ids.js';
import { openPostgres } from './client.js';
import { PgExecutor } from './executor.js';
import { PgLedger } from './ledger.js';
import { PgSchedules, PgWorkflows } from './workflows.js';
import { pgJobsStore } from './testing.js';
import { StoreJobQueue } from '../../jobs/store-queue.js';

const [mode, url, ...rest] = process.argv.slice(2);
const send = (message: unknown) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
const database = await openPostgres(url!, { max: 6 });

if (mode === 'jobs') {
  const ex = new PgExecutor(database.pool);
  const queue = new StoreJobQueue({ store: pgJobsStore(ex), clock: systemClock, random: cryptoRandom });
  const stallAfter = rest[2] === undefined ? Infinity : Number(rest[2]);
  let done = 0;
  let wedged = false;
  queue.register<{ n: number }>(
    'work',
    async (ctx) => {
      if (done >= stallAfter) {
        if (!wedged) void send({ wedged: ctx.job.id });
        wedged = true;
        await new Promise<never>(() => {});
      }
      await sleep(5 + (ctx.job.payload.n % 7));
      // Inside complete's transaction: the executor finds it (AsyncLocalStorage), so the effect commits with the success.
      await ctx.complete(() => ex.query('INSERT INTO job_effects (job_id, worker) VALUES ($1, $2)', [ctx.job.id, queue.owner]));
      done++;
    },
    { leaseMs: Number(rest[0] ?? 1500) },
  );
  queue.start({ pollMs: Number(rest[1] ?? 300), concurrency: 8 });
  await send({ ready: queue.owner });
  process.on('message', async () => {
    await queue.stop();
    await database.close();
    process.exit(0);
  });
} else if (mode === 'slots') {
  // As the engine's scheduler does: claim due slots through the port, then append each slot's execution.
  const ex = new PgExecutor(database.pool);
  const schedules = new PgSchedules(ex);
  const workflows = new PgWorkflows(ex);
  const following = (slot: string) => rest[rest.indexOf(slot) + 1] ?? null;
  await send({ ready: true });
  const won: string[] = [];
  // Eight claimers in flight per process, until nothing is due by the last slot.
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (;;) {
        const { claimed, read } = await schedules.claimDue(rest.at(-1)!, 25, (_w, slot) => following(slot));
        for (const { workflow, slot } of claimed) {
          const at = new Date().toISOString();
          await workflows.appendExecution({ id: randomUUID(), workflowId: workflow.id, userId: workflow.userId, trigger: 'schedule', slot, status: 'running', conditionMet: false, body: {}, startedAt: at, finishedAt: at });
          won.push(`${workflow.id}@${slot}`);
        }
        if (read === 0) return;
      }
    }),
  );
  await send({ won });
  await database.close();
  process.exit(0);
} else if (mode === 'ledger') {
  const userId = rest[0]!;
  const ex = new PgExecutor(database.pool);
  const ledger = new PgLedger(ex);
  const go = new Promise((resolve) => process.once('message', resolve));
  await send({ ready: true });
  await go;
  const reserveOne = () =>
    ex.atomically(async () => {
      const balance = await ledger.balance(userId);
      if (balance < 1) return false;
      const reservationId = randomUUID();
      const createdAt = new Date().toISOString();
      await ledger.insertReservation({ id: reservationId, userId, operation: 'test', amount: 1, used: 0, status: 'open', createdAt });
      await ledger.appendEntry({ id: randomUUID(), userId, kind: 'reserve', amount: -1, reservationId, operation: 'test', note: null, period: null, createdAt });
      return true;
    });
  const granted = (await Promise.all(Array.from({ length: 50 }, reserveOne))).filter(Boolean).length;
  await send({ granted });
  await database.close();
  process.exit(0);
}
