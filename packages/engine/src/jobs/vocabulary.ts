/** A job as the queue and its store port speak of it: plain data, shared by every queue driver. */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface Job<P = unknown> {
  id: string;
  kind: string;
  payload: P;
  status: JobStatus;
  /** Claims so far, the current one included. */
  attempts: number;
  maxAttempts: number;
  /** Engine clock, ms since the epoch. */
  runAt: number;
  lastError: string | null;
  result: unknown;
  createdAt: number;
  finishedAt: number | null;
}
