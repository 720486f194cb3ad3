// Loaded with --import into each measured process: prints its own CPU time (user + system, ms) to
// stderr as it exits, so the benchmark reads the child's CPU without platform tools.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\n@cpu ${(user + system) / 1000}\n`);
});
