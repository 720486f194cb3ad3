import { z } from 'zod';
import { HttpUrl } from '../core/schemas.js';
import { CreditsInfoSchema } from '../credits/schemas.js';
import { renderField } from '../web/render/schema.js';

export const BrandRequestBody = z
  .strictObject({ url: HttpUrl.describe('A page of the site, usually its home page'), render: renderField() })
  .meta({ id: 'BrandDesignSystemRequest' });

const Color = z.string().regex(/^#[0-9a-f]{6}$/).describe('#rrggbb');

export const BrandDesignSystemSchema = z
  .object({
    url: z.string().describe('The page read, after redirects'),
    name: z.string().nullable(),
    tagline: z.string().nullable(),
    logo: z
      .object({ url: z.string(), source: z.enum(['json-ld', 'img', 'svg', 'og:image']) })
      .nullable()
      .describe('The best logo candidate and where it was found'),
    favicon: z.string().nullable(),
    apple_touch_icon: z.string().nullable(),
    theme_color: Color.nullable(),
    colors: z.object({
      primary: Color.nullable(),
      secondary: Color.nullable(),
      accent: Color.nullable(),
      background: Color,
      text: Color,
      palette: z
        .array(z.object({ hex: Color, uses: z.number().int(), variable: z.string().nullable(), neutral: z.boolean() }))
        .describe('Every colour in the page and its stylesheets, most used first (at most 24)'),
    }),
    typography: z.object({
      body_font: z.string().nullable(),
      heading_font: z.string().nullable(),
      fonts: z.array(z.string()),
      font_faces: z.array(z.object({ family: z.string(), src: z.array(z.string()) })),
    }),
    stylesheets_read: z.number().int(),
    credits: CreditsInfoSchema,
  })
  .meta({ id: 'BrandDesignSystem' });

export type BrandDesignSystem = z.infer<typeof BrandDesignSystemSchema>;
