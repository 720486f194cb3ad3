import { Cron } from 'croner';

/** Pure checks for the workflow schedule fields, shared by create and patch validation. */

export const INTERVAL_PATTERN = /^\s*(\d+)\s*(minute|hour|day|week)s?\s*$/i;

const UNIT_MINUTES = { minute: 1, hour: 60, day: 1440, week: 10080 } as const;

/** The longest period, as for interval_minutes: a longer one would push the next run past what a Date holds. */
export const MAX_INTERVAL_MINUTES = 525_600;

/** "2 hours" → 120; null when the text is not an interval of 1 minute to 1 year. */
export function intervalToMinutes(interval: string): number | null {
  const match = INTERVAL_PATTERN.exec(interval);
  if (!match) return null;
  const minutes = Number(match[1]) * UNIT_MINUTES[match[2]!.toLowerCase() as keyof typeof UNIT_MINUTES];
  return minutes >= 1 && minutes <= MAX_INTERVAL_MINUTES ? minutes : null;
}

// maxStep is the largest step croner (the scheduler's cron engine) takes in each field.
const CRON_FIELDS = [
  { name: 'minute', min: 0, max: 59, maxStep: 60 },
  { name: 'hour', min: 0, max: 23, maxStep: 24 },
  { name: 'day of month', min: 1, max: 31, maxStep: 31 },
  { name: 'month', min: 1, max: 12, maxStep: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] },
  { name: 'day of week', min: 0, max: 7, maxStep: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
] as const;

/** Returns why a 5-field cron expression is invalid, or null when it is valid. */
export function cronProblem(expression: string): string | null {
  if (expression !== expression.trim()) return 'must not start or end with spaces';
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) return `must have 5 fields (minute hour day-of-month month day-of-week), has ${parts.length}`;
  for (const [i, part] of parts.entries()) {
    const field = CRON_FIELDS[i]!;
    for (const item of part.split(',')) {
      const problem = cronItemProblem(item, field);
      if (problem) return `${field.name} "${part}": ${problem}`;
    }
  }
  return null;
}

function cronItemProblem(item: string, field: (typeof CRON_FIELDS)[number]): string | null {
  const [range, step, extra] = item.split('/');
  if (extra !== undefined || range === undefined || range === '') return 'is not a cron item';
  if (step !== undefined && !/^\d+$/.test(step)) return 'has a step that is not a number';
  if (step !== undefined && Number(step) < 1) return 'has a step below 1';
  if (step !== undefined && Number(step) > field.maxStep) return `has a step above ${field.maxStep}`;
  if (range === '*') return null;
  const bounds = range.split('-');
  if (bounds.length > 2) return 'is not a range';
  const values: number[] = [];
  for (const bound of bounds) {
    const value = cronValue(bound, field);
    if (value === null) return `"${bound}" is not a value`;
    if (value < field.min || value > field.max) return `${value} is outside ${field.min}-${field.max}`;
    values.push(value);
  }
  // Croner reads a range ending in the name SUN (MON-SUN) as ending on day 7.
  if (field.name === 'day of week' && /^sun$/i.test(bounds[1] ?? '')) values[1] = 7;
  if (values.length === 2 && values[0]! > values[1]!) return `${range} runs backwards; write the smaller value first`;
  return null;
}

function cronValue(text: string, field: (typeof CRON_FIELDS)[number]): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  const names: readonly string[] = 'names' in field ? field.names : [];
  const index = names.indexOf(text.toUpperCase());
  if (index < 0) return null;
  return index + (field.name === 'month' ? 1 : 0);
}

/**
 * How far ahead a cron expression must fire at least once. Five years covers every valid date,
 * 29 February included (the one gap of eight leap-less years, 2097-2104, is out of reach).
 */
export const CRON_HORIZON_YEARS = 5;

/**
 * Returns why a syntactically valid cron expression never fires (e.g. "0 0 31 2 *", 31 February),
 * or null when croner, in `timezone`, finds a run within CRON_HORIZON_YEARS of `from`.
 */
export function cronNeverFiresProblem(expression: string, timezone: string, from: Date): string | null {
  const next = new Cron(expression, { timezone, paused: true }).nextRun(from);
  const horizon = new Date(from);
  horizon.setUTCFullYear(horizon.getUTCFullYear() + CRON_HORIZON_YEARS);
  if (next && next <= horizon) return null;
  return `never fires: no date matches it within ${CRON_HORIZON_YEARS} years in ${timezone} (check the day of month against the month)`;
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Returns the ids on a dependency cycle, or null when the steps form a DAG. */
export function findCycle(steps: { id: string; depends_on?: string[] | undefined }[]): string[] | null {
  const deps = new Map(steps.map((s) => [s.id, s.depends_on ?? []]));
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    path.push(id);
    for (const dep of deps.get(id) ?? []) {
      if (!deps.has(dep)) continue;
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const id of deps.keys()) {
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return null;
}
