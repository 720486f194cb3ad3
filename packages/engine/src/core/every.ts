export interface Loop {
  /** Ends the loop at once and resolves when the run in flight, if any, has settled. */
  stop(): Promise<void>;
}

/**
 * Runs `work` in the background every `intervalMs` of wall time (what is due still comes from the
 * engine clock). A beat that finds the previous run unfinished is skipped, so runs never overlap;
 * the timer is unref'd so a loop never keeps the process alive on its own.
 */
export function every(intervalMs: number, work: () => unknown): Loop {
  let inFlight: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (inFlight) return;
    inFlight = Promise.resolve()
      .then(work)
      .then(() => undefined)
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
