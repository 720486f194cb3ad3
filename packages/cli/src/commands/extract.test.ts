import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import type { ExtractionPreview } from '@wvr/engine';
import { runCli } from '../testing.js';

let data: string;
let web: LocalWeb;
beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'wvr-extract-'));
  web = await startLocalWeb({ sizes: { products: 20, articles: 5, docsDepth: 1 } });
});
afterAll(async () => {
  rmSync(data, { recursive: true, force: true });
  await web.close();
});

const env = { WVR_AI_BASE_URL: '' };

describe('wvr extract', () => {
  it('extracts product fields from a local-web page with an inline schema, as JSON', async () => {
    const url = web.truth.productUrls()[0]!;
    const truth = web.truth.page(url);
    if (truth?.kind !== 'product') throw new Error('no product truth');
    const result = await runCli(['--data', data, 'extract', url, '--schema', '{"brand":"The brand of the product","price":"The current price as a number"}', '--json'], env);
    expect(result.code).toBe(0);
    const preview = JSON.parse(result.stdout) as ExtractionPreview;
    expect(preview.extracted_data).toEqual({ brand: truth.product.brand, price: truth.product.price });
    expect(preview.credits.consumed).toBe(1);
  });

  it('reads the schema from a file and prints a table of fields', async () => {
    const file = join(data, 'schema.json');
    writeFileSync(file, JSON.stringify({ sku: 'The SKU of the product', isbn: 'The ISBN of the book' }));
    const result = await runCli(['--data', data, 'extract', web.truth.productUrls()[1]!, '--schema', file], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/sku\s+[A-Z]{3}-\d+\s+\(0\.\d+, (json_ld|microdata|dom_label)\)/);
    expect(result.stdout).toMatch(/isbn\s+—/);
    expect(result.stdout).toContain('1/2 fields');
  });

  it('refuses a schema that is not JSON before doing anything', async () => {
    const result = await runCli(['--data', data, 'extract', web.truth.productUrls()[0]!, '--schema', '{not json'], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/not valid JSON/);
  });

  it('reports the engine 400 naming the bad key', async () => {
    const result = await runCli(['--data', data, 'extract', web.truth.productUrls()[0]!, '--schema', '{"bad-key":"An instruction that is long"}'], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('extraction_schema.bad-key');
  });
});
