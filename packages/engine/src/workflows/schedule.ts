import { Cron } from 'croner';
import { MINUTE } from '../core/clock.js';
import type { WorkflowRecord } from '../store/ports/workflows.js';
import { intervalToMinutes } from './schedule-rules.js';

/** The schedule fields of a stored workflow. */
export type Schedule = Pick<WorkflowRecord, 'interval' | 'intervalMinutes' | 'cronExpression' | 'scheduledFor' | 'anchorMinute' | 'timezone'>;

/** Just the schedule fields of a workflow row (which has them under the same names). */
export const scheduleOf = (row: Schedule): Schedule => ({
  interval: row.interval,
  intervalMinutes: row.intervalMinutes,
  cronExpression: row.cronExpression,
  scheduledFor: row.scheduledFor,
  anchorMinute: row.anchorMinute,
  timezone: row.timezone,
});

type ScheduleKind = 'interval' | 'cron' | 'once';

function scheduleKind(s: Schedule): ScheduleKind {
  if (s.cronExpression) return 'cron';
  if (s.intervalMinutes !== null || s.interval) return 'interval';
  return 'once';
}

/** interval_minutes wins over interval, as the spec says. */
function periodMinutes(s: Schedule): number | null {
  if (s.intervalMinutes !== null) return s.intervalMinutes;
  if (s.interval) return intervalToMinutes(s.interval);
  return null;
}

/**
 * The first slot of a new (or resumed) workflow at or after `from`.
 * - interval without anchor_minute: due at once (the first run is the baseline), then every period;
 * - interval with anchor_minute: slots lie on the UTC grid shifted by anchor_minute
 *   (every hour at :MM for 60, every day at 00:MM UTC for 1440);
 * - cron: the next match in `timezone` strictly after `from`;
 * - scheduled_for: that instant (even if already past, so a late create still runs it once).
 */
export function firstSlot(s: Schedule, from: Date): Date | null {
  switch (scheduleKind(s)) {
    case 'once':
      return s.scheduledFor ? new Date(s.scheduledFor) : null;
    case 'cron':
      return cronAfter(s, from);
    case 'interval': {
      if (s.anchorMinute === null) return from;
      return gridSlotAtOrAfter(s, from);
    }
  }
}

/**
 * The slot after a run of `slot` that finished with the clock at `now`. Missed slots are
 * never replayed one by one: the run that just happened stands for all of them, and the
 * next slot is the first one after `now` (catch-up policy: at most one run after downtime).
 */
export function nextSlot(s: Schedule, slot: Date, now: Date): Date | null {
  switch (scheduleKind(s)) {
    case 'once':
      return null;
    case 'cron':
      return cronAfter(s, now > slot ? now : slot);
    case 'interval': {
      const period = periodMinutes(s)! * MINUTE;
      const base = slot.getTime();
      const floor = Math.max(base, now.getTime());
      const steps = Math.floor((floor - base) / period) + 1;
      return new Date(base + steps * period);
    }
  }
}

function cronAfter(s: Schedule, after: Date): Date | null {
  return new Cron(s.cronExpression!, { timezone: s.timezone, paused: true }).nextRun(after);
}

function gridSlotAtOrAfter(s: Schedule, from: Date): Date {
  const period = periodMinutes(s)! * MINUTE;
  const offset = s.anchorMinute! * MINUTE;
  const t = from.getTime() - offset;
  const k = Math.ceil(t / period);
  return new Date(k * period + offset);
}
