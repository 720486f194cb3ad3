#!/usr/bin/env node
import { main } from './main.js';
import { exitIfStuck } from './shutdown.js';

process.exitCode = await main(process.argv);
// The command has finished and its output is written (stdout and stderr are synchronous on pipes and
// files): a handle something left open must not keep the shell waiting.
exitIfStuck(1_000);
