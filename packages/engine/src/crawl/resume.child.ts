// Runs the job queue of an engine on an existing database file until killed: the crash half of resume.test.ts,
// and the other process of the shared-folder tests. Optional second argument: the poll interval in ms (default 20).
import { createEngine } from '../engine.js';

const dbPath = process.argv[2];
if (!dbPath) throw new Error('usage: resume.child.ts <db file>');
const engine = createEngine({ dbPath, allowPrivateNetwork: true, secret: 'test-secret' });
engine.jobs.start({ pollMs: Number(process.argv[3] ?? 20), concurrency: 1 });
process.stdout.write('started\n');
