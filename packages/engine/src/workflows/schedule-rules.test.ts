import { describe, expect, it } from 'vitest';
import { cronNeverFiresProblem } from './schedule-rules.js';

const from = new Date('2026-11-22T12:00:00Z');

describe('cronNeverFiresProblem', () => {
  it('refuses days that no chosen month has (31 February, 31 April and June)', () => {
    expect(cronNeverFiresProblem('0 0 31 2 *', 'UTC', from)).toMatch(/^never fires: no date matches it within 5 years in UTC/);
    expect(cronNeverFiresProblem('0 0 30 2 *', 'Europe/Berlin', from)).toMatch(/in Europe\/Berlin/);
    expect(cronNeverFiresProblem('0 0 31 4,6 *', 'UTC', from)).not.toBeNull();
  });

  it('accepts 29 February, which fires in the next leap year', () => {
    expect(cronNeverFiresProblem('0 0 29 2 *', 'UTC', from)).toBeNull();
  });

  it('accepts an impossible day of month when a weekday also matches (croner ORs the two)', () => {
    expect(cronNeverFiresProblem('0 0 31 2 1', 'Asia/Tokyo', from)).toBeNull();
  });

  it('accepts everyday expressions', () => {
    for (const cron of ['* * * * *', '0 9 * * MON-FRI', '0 0 31 * *']) expect(cronNeverFiresProblem(cron, 'America/New_York', from), cron).toBeNull();
  });
});
