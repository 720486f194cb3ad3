import { existsSync } from 'node:fs';
import type { RenderOptions } from '../../core/render-options.js';

export interface ResolvedRenderOptions {
  chromiumPath: string | null;
  maxContexts: number;
  memoryBudgetMb: number;
  pageTimeoutMs: number;
  maxScrollRounds: number;
}

/** Where distributions put Chromium or Chrome; the first that exists is used. */
export const USUAL_CHROMIUM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

/** A rough resident cost of one context with one page of a small application (measured in bench/render). */
export const PER_CONTEXT_MB = 120;

export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env.WVR_CHROMIUM_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return USUAL_CHROMIUM_PATHS.find((path) => existsSync(path)) ?? null;
}

export function resolveRenderOptions(options: RenderOptions = {}): ResolvedRenderOptions {
  return {
    chromiumPath: options.chromiumPath === undefined ? findChromium() : options.chromiumPath,
    maxContexts: Math.max(1, options.maxContexts ?? 2),
    memoryBudgetMb: Math.max(PER_CONTEXT_MB, options.memoryBudgetMb ?? 1024),
    pageTimeoutMs: options.pageTimeoutMs ?? 20_000,
    maxScrollRounds: options.maxScrollRounds ?? 10,
  };
}
