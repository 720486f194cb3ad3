/** Deterministic randomness: the same seed and key always give the same page. */
export function rng(seed: number, key: number | string): () => number {
  let state = (hash(String(key)) ^ Math.imul(seed, 0x9e3779b1)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

export const slugify = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export const FILLER = [
  'designed', 'for', 'everyday', 'use', 'with', 'careful', 'attention', 'to', 'detail', 'built', 'from', 'durable',
  'materials', 'that', 'last', 'tested', 'by', 'our', 'team', 'across', 'seasons', 'and', 'reviewed', 'customers',
  'praise', 'its', 'value', 'reliable', 'performance', 'simple', 'setup', 'thoughtful', 'quality', 'comfortable',
];

/** A sentence of deterministic filler with some topic words mixed in. */
export function sentence(random: () => number, topic: readonly string[], length = 14): string {
  const words = Array.from({ length }, (_, i) => (i % 4 === 1 ? pick(random, topic) : pick(random, FILLER)));
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
