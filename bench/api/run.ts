// pnpm --filter @wvr/bench bench:api -- concurrency=20 seconds=15 pages=1000
import { machine, writeResult } from '../lib/results.js';
import { apiLoad } from './load.js';

const args = Object.fromEntries(process.argv.slice(2).filter((a) => a.includes('=')).map((a) => a.split('=') as [string, string]));
const options = { concurrency: Number(args.concurrency ?? 20), seconds: Number(args.seconds ?? 15), pages: Number(args.pages ?? 1000) };
const figures = await apiLoad(options);
const file = writeResult('api-load', { machine: machine(), options, figures });
console.log(JSON.stringify({ options, figures }, null, 2));
console.log(`written to ${file}`);
