import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import type { AskResponse } from '@wvr/engine';
import { runCli } from '../testing.js';

let data: string;
let web: LocalWeb;
beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'wvr-ask-'));
  web = await startLocalWeb({ sizes: { products: 60, articles: 20, docsDepth: 2 } });
});
afterAll(async () => {
  rmSync(data, { recursive: true, force: true });
  await web.close();
});

describe('wvr ask', () => {
  it('answers from the local web with cited sources, as JSON and as text', async () => {
    const env = { WVR_SEARXNG_URL: web.search, WVR_AI_BASE_URL: '' };
    const asJson = await runCli(['--data', data, 'ask', 'Kestrel', 'smart', 'watch', '--depth', 'quick', '--max-sources', '2', '--json'], env);
    expect(asJson.code).toBe(0);
    const answer = JSON.parse(asJson.stdout) as AskResponse;
    expect(answer.question).toBe('Kestrel smart watch');
    expect(answer.credits.consumed).toBe(2);
    expect(answer.sources.length).toBeGreaterThan(0);
    expect(answer.sources.length).toBeLessThanOrEqual(2);
    expect(answer.answer).toMatch(/\[1\]/);

    const asText = await runCli(['--data', data, 'ask', 'Kestrel smart watch', '--depth', 'quick'], env);
    expect(asText.code).toBe(0);
    expect(asText.stdout).toContain('Sources:');
    expect(asText.stdout).toMatch(/\[1\] .+ — http:\/\/127\.0\.0\.1:\d+\/product\//);
    expect(asText.stdout).toContain('2 credits (max 2), 4 used on the local plan');
  });

  it('refuses an unknown depth before doing anything', async () => {
    const result = await runCli(['--data', data, 'ask', 'anything', '--depth', 'abyss']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("argument 'abyss' is invalid");
  });
});
