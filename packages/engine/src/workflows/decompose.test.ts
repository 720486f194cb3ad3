import { describe, expect, it } from 'vitest';
import { decomposeQuery, mergeSubResults } from './decompose.js';

describe('query decomposition', () => {
  it('splits a compound query, sharing a description among the names joined before it', () => {
    expect(decomposeQuery('noise cancelling headphones and batteries')).toEqual(['noise cancelling headphones', 'batteries']);
    expect(decomposeQuery('Veltro and Quillo noise cancelling headphones')).toEqual(['Veltro noise cancelling headphones', 'Quillo noise cancelling headphones']);
    expect(decomposeQuery('rust vs go, zig')).toEqual(['rust', 'go', 'zig']);
    expect(decomposeQuery('brandy sandwich recipes')).toEqual(['brandy sandwich recipes']);
  });

  it('merges one result per URL, interleaved, naming the sub-queries that found it', () => {
    const merged = mergeSubResults(
      [
        { query: 'a', results: [{ url: 'http://x/1' }, { url: 'http://x/2' }] },
        { query: 'b', results: [{ url: 'http://x/2/' }, { url: 'http://x/3' }] },
      ],
      (u) => u.replace(/\/$/, ''),
    );
    expect(merged).toEqual([
      { url: 'http://x/1', matched_queries: ['a'] },
      { url: 'http://x/2/', matched_queries: ['b', 'a'] },
      { url: 'http://x/3', matched_queries: ['b'] },
    ]);
  });
});
