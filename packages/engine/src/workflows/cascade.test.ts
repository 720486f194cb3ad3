import { describe, expect, it } from 'vitest';
import { parseCascade } from './cascade.js';

describe('cascade conditions', () => {
  it('reads count comparisons, non_empty and empty', () => {
    const more = parseCascade('hits.count >= 3')!;
    expect(more.key).toBe('hits');
    expect([more.test(2), more.test(3)]).toEqual([false, true]);
    expect(parseCascade('any.non_empty')!.test(1)).toBe(true);
    expect(parseCascade('news.empty')!.test(1)).toBe(false);
  });

  it('refuses anything else', () => {
    for (const text of ['whenever', 'hits.count > many', 'hits.size > 1', '.count > 1']) expect(parseCascade(text)).toBeNull();
  });
});
