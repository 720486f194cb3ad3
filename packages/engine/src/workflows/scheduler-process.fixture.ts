// Test support: a second engine process on the same database (a SQLite file or a PostgreSQL URL). It opens the engine, says
// "ready", and ticks the scheduler once when the test writes a line, so both processes claim together.
import { once } from 'node:events';
import { manualClock } from '../core/clock.js';
import { createEngine } from '../engine.js';
import { storeOptionsOf } from '../testing/store-target.js';

const [target, at] = process.argv.slice(2);
const where = storeOptionsOf(target!);
const engine = createEngine({ ...where, clock: manualClock(at!), secret: 'test-secret' });
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const runs = await engine.workflows.scheduler.tick();
await engine.close();
process.stdout.write(`${JSON.stringify(runs.map((r) => `${r.workflow_id}@${r.slot}`))}\n`);
process.stdin.destroy();
