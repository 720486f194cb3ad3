import { describe, expect, it } from 'vitest';
import { firstSlot, nextSlot, type Schedule } from './schedule.js';

const base: Schedule = { interval: null, intervalMinutes: null, cronExpression: null, scheduledFor: null, anchorMinute: null, timezone: 'UTC' };
const at = (iso: string) => new Date(iso);

describe('schedule', () => {
  it('keeps a Berlin 09:00 cron at 09:00 local time across the March DST change', () => {
    const s = { ...base, cronExpression: '0 9 * * *', timezone: 'Europe/Berlin' };
    const first = firstSlot(s, at('2026-03-27T12:00:00Z'))!;
    expect(first.toISOString()).toBe('2026-03-28T08:00:00.000Z'); // CET, UTC+1
    const second = nextSlot(s, first, first)!;
    expect(second.toISOString()).toBe('2026-03-29T07:00:00.000Z'); // CEST from 29 March, UTC+2
    expect(nextSlot(s, second, second)!.toISOString()).toBe('2026-03-30T07:00:00.000Z');
  });

  it('runs a New York cron at 01:30 once on the November day 01:30 happens twice', () => {
    const s = { ...base, cronExpression: '30 1 * * *', timezone: 'America/New_York' };
    const slot = firstSlot(s, at('2026-10-31T12:00:00Z'))!;
    expect(slot.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(nextSlot(s, slot, slot)!.toISOString()).toBe('2026-11-02T06:30:00.000Z');
  });

  it('aligns interval slots on anchor_minute', () => {
    const s = { ...base, intervalMinutes: 60, anchorMinute: 15 };
    const first = firstSlot(s, at('2026-03-10T12:20:00Z'))!;
    expect(first.toISOString()).toBe('2026-03-10T13:15:00.000Z');
    expect(nextSlot(s, first, first)!.toISOString()).toBe('2026-03-10T14:15:00.000Z');
    expect(firstSlot({ ...s, intervalMinutes: 1440, anchorMinute: 30 }, at('2026-03-10T12:20:00Z'))!.toISOString()).toBe('2026-03-11T00:30:00.000Z');
  });

  it('runs an interval workflow at once, and interval_minutes wins over interval', () => {
    const s = { ...base, interval: '2 hours', intervalMinutes: 30 };
    const now = at('2026-03-10T12:00:00Z');
    expect(firstSlot(s, now)).toEqual(now);
    expect(nextSlot(s, now, now)!.toISOString()).toBe('2026-03-10T12:30:00.000Z');
    expect(nextSlot({ ...s, intervalMinutes: null }, now, now)!.toISOString()).toBe('2026-03-10T14:00:00.000Z');
  });

  it('catches up after downtime with the first slot after now, not the missed backlog', () => {
    const s = { ...base, intervalMinutes: 10 };
    const missed = at('2026-03-10T12:00:00Z');
    const now = at('2026-03-10T15:07:00Z');
    expect(nextSlot(s, missed, now)!.toISOString()).toBe('2026-03-10T15:10:00.000Z');
  });

  it('gives a one-time schedule its instant and then nothing', () => {
    const s = { ...base, scheduledFor: '2026-04-01T09:00:00.000Z' };
    const slot = firstSlot(s, at('2026-03-10T12:00:00Z'))!;
    expect(slot.toISOString()).toBe('2026-04-01T09:00:00.000Z');
    expect(nextSlot(s, slot, slot)).toBeNull();
  });
});
