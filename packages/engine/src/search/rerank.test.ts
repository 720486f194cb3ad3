import { describe, expect, it } from 'vitest';
import { rerank, type RerankCandidate } from './rerank.js';

const c = (domain: string, relevanceScore: number, extra: Partial<RerankCandidate> = {}): RerankCandidate & { id: string } => ({
  id: `${domain}:${relevanceScore}`,
  domain,
  relevanceScore,
  authority: false,
  typeMatch: false,
  intentBoost: false,
  ...extra,
});

describe('rerank', () => {
  it('multiplies by 1.25 for authority alignment and 1.15 for a document-type match', () => {
    const [first, second, third] = rerank([c('a.test', 0.6), c('b.test', 0.5, { typeMatch: true }), c('c.test', 0.45, { authority: true })]);
    // 0.6 stays first; 0.5 x 1.15 = 0.575 edges out 0.45 x 1.25 = 0.5625.
    expect(first!.item.domain).toBe('a.test');
    expect(first!.score).toBeCloseTo(0.6, 10);
    expect(second!.item.domain).toBe('b.test');
    expect(second!.score).toBeCloseTo(0.575, 10);
    expect(third!.item.domain).toBe('c.test');
    expect(third!.score).toBeCloseTo(0.5625, 10);
  });

  it('lets authority lift a lower result above a higher one: 0.5 x 1.25 = 0.625 beats 0.6', () => {
    const out = rerank([c('a.test', 0.6), c('gov.test', 0.5, { authority: true })]);
    expect(out.map((r) => r.item.domain)).toEqual(['gov.test', 'a.test']);
    expect(out[0]!.score).toBeCloseTo(0.625, 10);
  });

  it('combines authority and type match: 0.4 x 1.25 x 1.15 = 0.575', () => {
    const [top] = rerank([c('x.test', 0.4, { authority: true, typeMatch: true })]);
    expect(top!.score).toBeCloseTo(0.575, 10);
  });

  it('penalises repeated domains by exp(-0.15 x domain_count)', () => {
    // Same domain three times at 1.0, 0.95, 0.9; another domain at 0.85.
    const out = rerank([c('same.test', 1), c('same.test', 0.95), c('same.test', 0.9), c('other.test', 0.85)]);
    // Second place: same.test 0.95 x e^-0.15 = 0.8177 < other.test 0.85.
    expect(out.map((r) => `${r.item.domain}:${r.item.relevanceScore}`)).toEqual([
      'same.test:1',
      'other.test:0.85',
      'same.test:0.95',
      'same.test:0.9',
    ]);
    expect(out[2]!.score).toBeCloseTo(0.95 * Math.exp(-0.15), 10);
    expect(out[2]!.domainCount).toBe(1);
    expect(out[3]!.score).toBeCloseTo(0.9 * Math.exp(-0.3), 10);
    expect(out[3]!.domainCount).toBe(2);
  });

  it('keeps a repeated domain ahead when its relevance outweighs the penalty', () => {
    // 0.95 x e^-0.15 = 0.8177 > 0.8.
    const out = rerank([c('same.test', 1), c('same.test', 0.95), c('other.test', 0.8)]);
    expect(out.map((r) => r.item.domain)).toEqual(['same.test', 'same.test', 'other.test']);
  });

  it('applies the +20% intent boost: 0.5 x 1.2 = 0.6 beats 0.55', () => {
    const out = rerank([c('a.test', 0.55), c('docs.test', 0.5, { intentBoost: true })]);
    expect(out[0]!.item.domain).toBe('docs.test');
    expect(out[0]!.score).toBeCloseTo(0.6, 10);
  });

  it('counts domains the session has already seen as a soft penalty', () => {
    const seen = new Map([['seen.test', 2]]);
    const out = rerank([c('seen.test', 0.9), c('fresh.test', 0.7)], seen);
    // 0.9 x e^-0.3 = 0.6667 < 0.7.
    expect(out.map((r) => r.item.domain)).toEqual(['fresh.test', 'seen.test']);
    expect(out[1]!.score).toBeCloseTo(0.9 * Math.exp(-0.3), 10);
  });
});
