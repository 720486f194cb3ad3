import type { HostGatePort } from '../ports/hosts.js';
import type { PgExecutor } from './executor.js';

/**
 * One statement reserves the start under the origin's row lock, on the database's clock, so
 * servers whose clocks disagree still space their requests by the delay.
 */
export class PgHostGate implements HostGatePort {
  constructor(private readonly ex: PgExecutor) {}

  async reserve(origin: string, delayMs: number): Promise<number> {
    const { rows } = await this.ex.query<{ wait: number }>(
      `WITH now AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms)
       INSERT INTO host_gates (origin, next_start) SELECT $1, ms + $2 FROM now
       ON CONFLICT (origin) DO UPDATE SET next_start = GREATEST(host_gates.next_start, (SELECT ms FROM now)) + $2
       RETURNING next_start - $2 - (SELECT ms FROM now) AS wait`,
      [origin, delayMs],
    );
    return Math.max(0, Number(rows[0]!.wait));
  }
}
