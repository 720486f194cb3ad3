/** How long a command may take to close after Ctrl-C or SIGTERM before it exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Called when a command is told to stop: it closes what it holds (in-flight jobs back to the queue,
 * the database), and if that has not ended the process within the grace period, the process exits
 * anyway, saying so. The timer is unref'd, so a clean close never waits for it.
 */
export function exitIfStuck(graceMs = SHUTDOWN_GRACE_MS): void {
  setTimeout(() => {
    process.stderr.write(`wvr: still closing ${graceMs / 1000} s after the stop signal; exiting now.\n`);
    process.exit(process.exitCode ?? 1);
  }, graceMs).unref();
}
