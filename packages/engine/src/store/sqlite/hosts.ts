import type Database from 'better-sqlite3';

/**
 * One statement reserves the start, so processes on one file never share a slot. The wall clock
 * is the time base: it is the clock every process on the machine shares.
 */
export class SqliteHostGate {
  private readonly upsert: Database.Statement<[{ origin: string; now: number; delay: number }], { next_start: number }>;

  constructor(sqlite: Database.Database) {
    this.upsert = sqlite.prepare(
      `INSERT INTO host_gates (origin, next_start) VALUES (@origin, @now + @delay)
       ON CONFLICT (origin) DO UPDATE SET next_start = max(host_gates.next_start, @now) + @delay
       RETURNING next_start`,
    );
  }

  reserve(origin: string, delayMs: number): number {
    const now = Date.now();
    const { next_start } = this.upsert.get({ origin, now, delay: delayMs })!;
    return Math.max(0, next_start - delayMs - now);
  }
}
