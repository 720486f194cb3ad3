import { collapse, parseDocument, textOf, type HTMLElement } from '../html/dom.js';
import { readJsonLd } from '../html/metadata.js';
import { resolveUrl } from '../html/url.js';
import { luminance, readCss, saturation, toHex, type CssReading } from './css.js';
import type { BrandDesignSystem } from './schemas.js';

export type BrandReading = Omit<BrandDesignSystem, 'credits' | 'stylesheets_read'>;

export interface Stylesheet {
  url: string;
  css: string;
}

const NEUTRAL_SATURATION = 0.15;
const PALETTE_SIZE = 24;

/** The stylesheets a page links, resolved, in document order: what the service fetches before reading the brand. */
export function linkedStylesheets(html: string, pageUrl: string): string[] {
  return parseDocument(html)
    .querySelectorAll('link[rel~="stylesheet"][href]')
    .map((l) => resolveUrl(l.getAttribute('href'), pageUrl))
    .filter((u): u is string => u !== null);
}

/** A site's brand system from one page and its stylesheets: names, logo, colours and type. */
export function readBrand(html: string, pageUrl: string, stylesheets: Stylesheet[]): BrandReading {
  const root = parseDocument(html);
  const meta = metaOf(root);
  const ld = readJsonLd(root);
  const org = ld.find((item) => /Organization|Brand|Corporation|LocalBusiness|Store/.test(String(item['@type'] ?? '')));
  const site = ld.find((item) => String(item['@type'] ?? '') === 'WebSite');

  const inline = [...root.querySelectorAll('style').map((s) => s.text), ...root.querySelectorAll('[style]').map((el) => `x{${el.getAttribute('style')}}`)];
  const sheets = [...stylesheets.map((s) => s.css), ...inline];
  const css = mergeReadings(sheets.map(readCss));
  const rules = sheets.flatMap(rulesOf);
  const themeColor = meta['theme-color'] ? toHex(meta['theme-color']) : null;

  const link = (rel: RegExp) => resolveUrl(root.querySelectorAll('link[href]').find((l) => rel.test(l.getAttribute('rel') ?? ''))?.getAttribute('href'), pageUrl);
  const googleFonts = root
    .querySelectorAll('link[href*="fonts.googleapis.com"]')
    .flatMap((l) => [...(l.getAttribute('href') ?? '').matchAll(/family=([^&:]+)/g)].map((m) => decodeURIComponent(m[1]!).replace(/\+/g, ' ')));
  const bodyFont = fontOf(rules, /(^|,)\s*(html|body|:root)\s*(,|$)/) ?? css.fonts[0] ?? googleFonts[0] ?? null;

  return {
    url: pageUrl,
    name: firstOf(meta['og:site_name'], str(org?.name), str(site?.name), meta['application-name'], titleSiteName(root, pageUrl)),
    tagline: firstOf(str(org?.slogan), str(site?.description), firstSentence(meta.description ?? meta['og:description']), heroLine(root)),
    logo: logoOf(root, org, meta, pageUrl),
    favicon: link(/(^|\s)(shortcut )?icon(\s|$)/i) ?? resolveUrl('/favicon.ico', pageUrl),
    apple_touch_icon: link(/apple-touch-icon/i),
    theme_color: themeColor,
    colors: colorsOf(css, rules, themeColor),
    typography: {
      body_font: bodyFont,
      heading_font: fontOf(rules, /(^|,)\s*h[1-3]\b/) ?? bodyFont,
      fonts: [...new Set([...css.fonts, ...googleFonts])],
      font_faces: css.fontFaces,
    },
  };
}

function colorsOf(css: CssReading, rules: Rule[], themeColor: string | null): BrandReading['colors'] {
  const variableOf = new Map(Object.entries(css.colorVariables).map(([name, hex]) => [hex, name]));
  const palette = [...css.colorUses.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, PALETTE_SIZE)
    .map(([hex, uses]) => ({ hex, uses, variable: variableOf.get(hex) ?? null, neutral: saturation(hex) < NEUTRAL_SATURATION }));
  const byName = (pattern: RegExp) => Object.entries(css.colorVariables).find(([name]) => pattern.test(name))?.[1] ?? null;
  const saturated = palette.filter((c) => !c.neutral).map((c) => c.hex);

  const primary = byName(/^(color-)?(primary|brand)(-color|-500|-main)?$/) ?? (themeColor && saturation(themeColor) >= NEUTRAL_SATURATION ? themeColor : null) ?? saturated[0] ?? null;
  const rest = saturated.filter((c) => c !== primary);
  const secondary = byName(/^(color-)?secondary(-color|-500|-main)?$/) ?? rest[0] ?? null;
  const accent = byName(/^(color-)?accent(-color|-500|-main)?$/) ?? rest.find((c) => c !== secondary) ?? null;

  const declared = (selector: RegExp, property: RegExp) =>
    rules.filter((r) => selector.test(r.selector)).flatMap((r) => r.declarations.filter(([p]) => property.test(p)).map(([, v]) => toHex(v.split(/\s+/).find((part) => toHex(part)) ?? v)))[0] ?? null;
  const neutrals = palette.filter((c) => c.neutral);
  return {
    primary,
    secondary,
    accent,
    background: byName(/^(color-)?(background|bg|surface)(-color)?$/) ?? declared(/(^|,)\s*(html|body)\s*(,|$)/, /^background(-color)?$/) ?? neutrals.find((c) => luminance(c.hex) > 0.9)?.hex ?? '#ffffff',
    text: byName(/^(color-)?(text|foreground|fg|body)(-color)?$/) ?? declared(/(^|,)\s*(html|body)\s*(,|$)/, /^color$/) ?? neutrals.find((c) => luminance(c.hex) < 0.35)?.hex ?? '#000000',
    palette,
  };
}

interface Rule {
  selector: string;
  declarations: [property: string, value: string][];
}

function rulesOf(css: string): Rule[] {
  return [...css.replace(/\/\*[\s\S]*?\*\//g, ' ').matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({
    selector: m[1]!.trim().toLowerCase(),
    declarations: m[2]!
      .split(';')
      .map((d) => d.split(/:(.*)/s))
      .filter((parts) => parts.length >= 2 && parts[1]!.trim())
      .map((parts) => [parts[0]!.trim().toLowerCase(), parts[1]!.trim()] as [string, string]),
  }));
}

function fontOf(rules: Rule[], selector: RegExp): string | null {
  for (const rule of rules) {
    if (!selector.test(rule.selector)) continue;
    const family = rule.declarations.find(([p]) => p === 'font-family')?.[1];
    const first = family ? readCss(`x{font-family:${family}}`).fonts[0] : undefined;
    if (first) return first;
  }
  return null;
}

function mergeReadings(readings: CssReading[]): CssReading {
  const merged: CssReading = { colorUses: new Map(), colorVariables: {}, fonts: [], fontFaces: [] };
  for (const r of readings) {
    for (const [hex, n] of r.colorUses) merged.colorUses.set(hex, (merged.colorUses.get(hex) ?? 0) + n);
    merged.colorVariables = { ...r.colorVariables, ...merged.colorVariables };
    for (const f of r.fonts) if (!merged.fonts.includes(f)) merged.fonts.push(f);
    merged.fontFaces.push(...r.fontFaces);
  }
  return merged;
}

function logoOf(root: HTMLElement, org: Record<string, unknown> | undefined, meta: Record<string, string>, pageUrl: string): BrandReading['logo'] {
  const ldLogo = typeof org?.logo === 'string' ? org.logo : str((org?.logo as Record<string, unknown> | undefined)?.url);
  const fromLd = ldLogo ? resolveUrl(ldLogo, pageUrl) : null;
  if (fromLd) return { url: fromLd, source: 'json-ld' };
  const looksLikeLogo = (el: HTMLElement) =>
    /logo|brand/i.test([el.getAttribute('class'), el.getAttribute('id'), el.getAttribute('alt'), el.getAttribute('src')].join(' ')) ||
    /logo|brand/i.test([el.parentNode?.getAttribute('class'), el.parentNode?.getAttribute('id')].join(' '));
  const images = root.querySelectorAll('img[src]');
  const inHeader = root.querySelectorAll('header img[src], [class*="header"] img[src], nav img[src]');
  const img = images.find(looksLikeLogo) ?? inHeader[0];
  const imgUrl = img ? resolveUrl(img.getAttribute('src'), pageUrl) : null;
  if (imgUrl) return { url: imgUrl, source: 'img' };
  const svgUse = root.querySelectorAll('header svg use, [class*="logo"] svg use').map((u) => u.getAttribute('href') ?? u.getAttribute('xlink:href'))[0];
  const svgUrl = svgUse && !svgUse.startsWith('#') ? resolveUrl(svgUse, pageUrl) : null;
  if (svgUrl) return { url: svgUrl, source: 'svg' };
  const og = meta['og:image'] ? resolveUrl(meta['og:image'], pageUrl) : null;
  return og ? { url: og, source: 'og:image' } : null;
}

function metaOf(root: HTMLElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const el of root.querySelectorAll('meta[content]')) {
    const key = (el.getAttribute('property') ?? el.getAttribute('name'))?.toLowerCase();
    if (key && !(key in out)) out[key] = collapse(el.getAttribute('content') ?? '');
  }
  return out;
}

/** "Pricing | Acme" and "Acme – Home" both name the site Acme: generic page names dropped, then the part found in the host name, else the last part. */
function titleSiteName(root: HTMLElement, pageUrl: string): string | null {
  const title = root.querySelector('title');
  if (!title) return null;
  const parts = textOf(title)
    .split(/\s+[|–—:·-]\s+/)
    .filter((p) => p && !GENERIC_PAGE_NAMES.test(p));
  const host = new URL(pageUrl).hostname.toLowerCase();
  return parts.find((p) => host.includes(p.toLowerCase().replace(/[^a-z0-9]/g, ''))) ?? parts.at(-1) ?? null;
}

const GENERIC_PAGE_NAMES = /^(home( ?page)?|welcome|official (web)?site|start)$/i;

function heroLine(root: HTMLElement): string | null {
  const el = root.querySelector('header p, .hero p, .hero h2, [class*="tagline"], [class*="slogan"]');
  return el ? textOf(el) || null : null;
}

const firstSentence = (text: string | undefined) => (text ? (/^.*?[.!?](\s|$)/.exec(text)?.[0] ?? text).trim() : null);
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const firstOf = (...values: (string | null | undefined)[]) => values.find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? null;
