import { describe, expect, it } from 'vitest';
import { balanceNote, table } from './print.js';

const LONG_URL = `https://shop.example.test/catalogue/category/garden/${'very-long-product-slug-'.repeat(4)}final`;
const rows = [
  { importance: '0.912', status: 200, depth: 1, label: 'product', title: 'Cordless hedge trimmer with two batteries and a charger', url: LONG_URL },
  { importance: '0.450', status: 200, depth: 0, label: null, title: 'Home', url: 'https://shop.example.test/' },
];
const columns = ['importance', 'status', 'depth', 'label', 'title', 'url'];

describe('table', () => {
  it('fits a 120-column terminal by shortening the URL and title columns with an ellipsis', () => {
    const lines = table(rows, columns, { width: 120 }).split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(120);
    expect(lines[1]).toMatch(/^0\.912\s+200\s+1\s+product\s+Cordless hedge trimmer.*…\s+https:\/\/shop\.example\.test\/catalogue\/.*…$/);
    expect(lines[2]).toMatch(/^0\.450\s+200\s+0\s+-\s+Home\s+https:\/\/shop\.example\.test\/$/);
    expect(lines[0]).toMatch(/^IMPORTANCE\s+STATUS\s+DEPTH\s+LABEL\s+TITLE\s+URL$/);
  });

  it('prints every value in full without a width (piped output, scripts)', () => {
    const text = table(rows, columns, { width: undefined });
    expect(text).toContain(LONG_URL);
    expect(text).toContain('Cordless hedge trimmer with two batteries and a charger');
    expect(text).not.toContain('…');
  });

  it('leaves a table that already fits unchanged', () => {
    expect(table(rows.slice(1), columns, { width: 120 })).toBe(table(rows.slice(1), columns, { width: undefined }));
  });

  it('never shortens ids or numbers, only text columns, and not below 12 characters', () => {
    const id = '5f0c6a8e-3b1d-4c2a-9e7f-0a1b2c3d4e5f';
    const lines = table([{ id, credits: 12345, url: LONG_URL }], ['id', 'credits', 'url'], { width: 40 }).split('\n');
    expect(lines[1]).toBe(`${id}  12345    https://sho…`);
  });
});

describe('balanceNote', () => {
  it('says "not enough" only when the balance would not cover the cost', () => {
    expect(balanceNote(40, true)).toBe('balance 40');
    expect(balanceNote(4, false)).toBe('balance 4 — not enough');
  });
});
