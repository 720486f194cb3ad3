// An engine working in the background on an existing database file until killed, as `wvr worker`
// does, with short intervals: the process the crash tests kill -9.
import { createEngine } from '../engine.js';

const dbPath = process.argv[2];
if (!dbPath) throw new Error('usage: worker.child.ts <db file>');
const engine = createEngine({ dbPath, allowPrivateNetwork: true, secret: 'test-secret' });
engine.start({ jobPollMs: 20, schedulerIntervalMs: 100, deliveryIntervalMs: 200 });
process.stdout.write('started\n');
// The engine's loops unref their timers; this process lives until it is killed.
setInterval(() => undefined, 2 ** 30);
