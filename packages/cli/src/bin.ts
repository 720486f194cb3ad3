#!/usr/bin/env node
import { main } from './main.js';
import { exitIfStuck } from './shutdown.js';

// A reader that stops early (`wvr --json crawl … | head`) closes the pipe, and the next write fails with EPIPE. A Unix
// tool is ended by SIGPIPE then, quietly; Node ignores that signal, so the failed write would end the process with a
// stack trace instead. What is stored is committed as it goes (an unfinished crawl resumes on the next start), so
// leaving at once loses nothing; the code is the shell's for a process SIGPIPE ended, 128 + 13.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(141);
});

process.exitCode = await main(process.argv);
// The command has finished and its output is written (stdout and stderr are synchronous on pipes and
// files): a handle something left open must not keep the shell waiting.
exitIfStuck(1_000);
