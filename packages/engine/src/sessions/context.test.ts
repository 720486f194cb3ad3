import { describe, expect, it } from 'vitest';
import { accumulate, analyse, emptyContext } from './context.js';

describe('session context', () => {
  it('keeps the 20 most recent distinct queries, newest last', () => {
    let state = emptyContext();
    for (let i = 0; i < 25; i++) state = accumulate(state, { query: `q${i}`, documents: [] });
    state = accumulate(state, { query: 'q10', documents: [] });
    expect(state.recent_queries).toHaveLength(20);
    expect(state.recent_queries.at(-1)).toBe('q10');
    expect(state.recent_queries.filter((q) => q === 'q10')).toHaveLength(1);
  });

  it('bounds counters to the 200 most frequent entries', () => {
    const documents = Array.from({ length: 250 }, (_, i) => ({ url: `https://host${i}.test/` }));
    const state = accumulate(emptyContext(), { documents: [...documents, { url: 'https://host0.test/again' }] });
    expect(Object.keys(state.domains)).toHaveLength(200);
    expect(state.domains['host0.test']).toBe(2);
    expect(state.documents_seen).toBe(251);
  });

  it('does not change the state it was given', () => {
    const state = emptyContext();
    accumulate(state, { query: 'x', documents: [{ url: 'https://a.test/' }] });
    expect(state).toEqual(emptyContext());
  });

  it('finds people, places and organizations as entities and common nouns as singular keywords', () => {
    const found = analyse('Marie Curie worked in Paris on radioactive elements and wrote papers.');
    expect(found.entities).toEqual(expect.arrayContaining(['Marie Curie', 'Paris']));
    expect(found.keywords).toEqual(expect.arrayContaining(['element', 'paper']));
    expect(analyse('   ')).toEqual({ entities: [], keywords: [] });
  });

  it('counts domains as search does: without www, with a non-default port, skipping bad URLs', () => {
    const next = accumulate(emptyContext(), { documents: [{ url: 'https://WWW.Example.test/x' }, { url: 'http://127.0.0.1:8080/a' }, { url: 'not a url' }] });
    expect(next.domains).toEqual({ 'example.test': 1, '127.0.0.1:8080': 1 });
  });
});
