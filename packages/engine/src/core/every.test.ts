import { describe, expect, it } from 'vitest';
import { every } from './every.js';

const beats = (n: number, ms: number) => new Promise((resolve) => setTimeout(resolve, n * ms));

describe('every', () => {
  it('runs the work repeatedly until stopped, then never again', async () => {
    let runs = 0;
    const loop = every(1, () => {
      runs++;
    });
    while (runs < 3) await beats(1, 5);
    await loop.stop();
    const atStop = runs;
    await beats(5, 5);
    expect(runs).toBe(atStop);
  });

  it('skips beats while a run is unfinished, so runs never overlap', async () => {
    let active = 0;
    let most = 0;
    let finished = 0;
    const loop = every(1, async () => {
      active++;
      most = Math.max(most, active);
      await beats(1, 10);
      active--;
      finished++;
    });
    while (finished < 3) await beats(1, 5);
    await loop.stop();
    expect(most).toBe(1);
  });

  it('waits on stop for the run in flight to settle', async () => {
    let release: () => void = () => undefined;
    let started = false;
    let done = false;
    const loop = every(1, async () => {
      started = true;
      await new Promise<void>((resolve) => (release = resolve));
      done = true;
    });
    while (!started) await beats(1, 5);
    const stopped = loop.stop();
    release();
    await stopped;
    expect(done).toBe(true);
  });

  it('reports a failed run and tries again on the next beat; stop() still resolves', async () => {
    const failures: unknown[] = [];
    let runs = 0;
    const loop = every(
      1,
      () => {
        runs++;
        throw new Error('database is locked');
      },
      (error) => failures.push(error),
    );
    while (runs < 3) await beats(1, 5);
    await expect(loop.stop()).resolves.toBeUndefined();
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(String(failures[0])).toContain('database is locked');
  });

  it('backs off while runs keep failing (a full disk) and is back to every beat after a success', async () => {
    let failing = 0;
    let healthy = 0;
    let broken = true;
    const sick = every(2, () => {
      failing++;
      if (broken) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    }, () => undefined);
    const well = every(2, () => {
      healthy++;
    });
    while (healthy < 60) await beats(1, 5);
    // Against a loop on the same beat in the same run: a handful of tries, not one per beat.
    expect(failing).toBeLessThan(healthy / 4);
    broken = false;
    const [fromFailing, fromHealthy] = [failing, healthy];
    while (failing - fromFailing < 20) await beats(1, 5);
    expect(healthy - fromHealthy).toBeLessThan(3 * (failing - fromFailing) + 64);
    await Promise.all([sick.stop(), well.stop()]);
  });
});
