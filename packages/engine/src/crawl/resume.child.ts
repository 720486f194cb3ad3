// Runs the job queue of an engine on an existing database until killed: the crash half of resume.test.ts,
// and the other process of the shared-folder and politeness tests. The first argument is a SQLite file or a
// PostgreSQL URL; the optional second one the poll interval in ms (default 20).
import { createEngine } from '../engine.js';
import { storeOptionsOf } from '../testing/store-target.js';

const target = process.argv[2];
if (!target) throw new Error('usage: resume.child.ts <db file | postgres://…> [poll ms]');
const where = storeOptionsOf(target!);
const engine = createEngine({ ...where, allowPrivateNetwork: true, secret: 'test-secret' });
await engine.ready();
engine.jobs.start({ pollMs: Number(process.argv[3] ?? 20), concurrency: 1 });
process.stdout.write('started\n');
// The engine's loops unref their timers (embedders must be able to exit); this process lives until it is killed.
setInterval(() => undefined, 2 ** 30);
