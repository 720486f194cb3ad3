export interface Loop {
  /** Ends the loop at once and resolves when the run in flight, if any, has settled. */
  stop(): Promise<void>;
}

/**
 * Runs `work` in the background every `intervalMs` of wall time (what is due still comes from the
 * engine clock). A beat that finds the previous run unfinished is skipped, so runs never overlap;
 * the timer is unref'd so a loop never keeps the process alive on its own. A failed run is reported
 * to `onFailure` (default: a process warning) and the next beat tries again: a background loop
 * never ends in an unhandled rejection, and stop() never throws.
 */
export function every(intervalMs: number, work: () => unknown, onFailure: (error: unknown) => void = warn): Loop {
  let inFlight: Promise<void> | undefined;
  // After failures in a row (a full disk, a database held by another writer) the loop backs off:
  // it skips 1, 3, 7 ... beats, up to MAX_SKIPPED_BEATS, and is back to every beat after a success.
  let failures = 0;
  let skip = 0;
  const timer = setInterval(() => {
    if (inFlight) return;
    if (skip > 0) {
      skip--;
      return;
    }
    inFlight = Promise.resolve()
      .then(work)
      .then(
        () => {
          failures = 0;
        },
        (error: unknown) => {
          failures++;
          skip = Math.min(2 ** failures - 1, MAX_SKIPPED_BEATS);
          onFailure(error);
        },
      )
      .finally(() => {
        inFlight = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}

const MAX_SKIPPED_BEATS = 31;

function warn(error: unknown): void {
  process.emitWarning(`wvr background work failed and will be retried: ${error instanceof Error ? error.message : String(error)}`);
}
