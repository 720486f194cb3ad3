import { WvrError } from './errors.js';

/**
 * SQLite answers that mean "not now" rather than "never". `busy`: another process on the data
 * folder held the write lock past the busy timeout. `full`: the disk (or the quota) is full. Both
 * pass once the other writer commits or space returns, so background work retries them instead of
 * failing its job, and the API answers 503 / 507 instead of a 500.
 */
export type StorageProblem = 'busy' | 'full';

export function storageProblem(error: unknown): StorageProblem | undefined {
  if (error instanceof WvrError) return error.code === 'storage_full' ? 'full' : error.code === 'database_busy' ? 'busy' : undefined;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
  // A full disk shows as SQLITE_FULL, or as a failed write (ENOSPC) inside the WAL or the journal.
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return 'full';
  if (code.startsWith('SQLITE_IOERR') && /disk|full|space/i.test(String((error as Error).message))) return 'full';
  return undefined;
}

/** The error a caller gets for a storage problem: 503 database_busy or 507 storage_full, both with Retry-After. */
export function storageError(error: unknown): WvrError | undefined {
  const problem = storageProblem(error);
  if (problem === undefined) return undefined;
  if (error instanceof WvrError) return error;
  if (problem === 'busy') {
    return new WvrError('unavailable', 'The database is busy with other writers; retry shortly.', {
      code: 'database_busy',
      retryAfter: 1,
      suggestions: ['Retry after the time in Retry-After.'],
      cause: error,
    });
  }
  return new WvrError('storage_full', 'The server has no disk space left to store this; nothing was written. It resumes by itself once space is freed.', {
    code: 'storage_full',
    retryAfter: 30,
    suggestions: ['Retry later; the operator must free disk space in the data folder.'],
    cause: error,
  });
}

/** How long background work waits before retrying after a storage problem, in ms. */
export function storageRetryDelay(problem: StorageProblem): number {
  return problem === 'busy' ? 200 : 5_000;
}
