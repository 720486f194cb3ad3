import { z } from 'zod';

export const RenderModeSchema = z.enum(['never', 'auto', 'always']).meta({ id: 'RenderMode' });

/** The request field every operation that reads pages takes (crawl, preview, brand, ask, workflows through their crawl config). */
export const renderField = () =>
  RenderModeSchema.default('auto').describe(
    'wvr extension (not in the spec). Run the page scripts in headless Chromium: never; auto (default: only pages that look like an application shell); always. ' +
      'A rendered page is priced at the advanced tier (docs/rendering.md). render: always on a server without Chromium answers 400 render_unavailable',
  );

export const RenderInfoSchema = z
  .object({
    mode: RenderModeSchema,
    rendered: z.boolean().describe('Whether the content comes from the rendered page'),
    note: z.string().optional().describe('Why it was rendered, or why not (no browser on the server, a failed render)'),
  })
  .meta({ id: 'RenderInfo' });
