/**
 * `work`, or `signal`'s reason as soon as it aborts. A Playwright call can stay pending for good
 * (newPage does when its context closes while the tab is being made; every call does when the
 * browser hangs), so the renderer never waits on one past its time; the call left behind is dropped.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abandon = () => reject(signal.reason);
    if (signal.aborted) abandon();
    signal.addEventListener('abort', abandon, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abandon));
  });
}
