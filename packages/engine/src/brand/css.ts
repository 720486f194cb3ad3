/**
 * Reads the parts of CSS a brand lives in: colours (with how often each is used and under
 * which custom-property names), font families, and @font-face sources. A tokeniser-free
 * reading is enough here: declarations are `name: value` pairs between braces.
 */
export interface CssReading {
  /** Hex colour (#rrggbb) to the number of declarations using it. */
  colorUses: Map<string, number>;
  /** Custom properties whose value is a colour: name (without --) to hex. */
  colorVariables: Record<string, string>;
  /** Font families in order of first use, generic families dropped. */
  fonts: string[];
  fontFaces: { family: string; src: string[] }[];
}

const GENERIC_FONTS = new Set(['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui', 'ui-sans-serif', 'ui-serif', 'ui-monospace', 'inherit', 'initial', 'unset', '-apple-system', 'blinkmacsystemfont']);

const NAMED: Record<string, string> = {
  black: '#000000', white: '#ffffff', red: '#ff0000', green: '#008000', blue: '#0000ff', navy: '#000080', teal: '#008080',
  orange: '#ffa500', purple: '#800080', gray: '#808080', grey: '#808080', silver: '#c0c0c0', maroon: '#800000', yellow: '#ffff00',
};

const COLOR = /#[0-9a-fA-F]{3,8}\b|rgba?\([^)]*\)|hsla?\([^)]*\)|\b(?:black|white|red|green|blue|navy|teal|orange|purple|gr[ae]y|silver|maroon|yellow)\b/g;

export function readCss(css: string): CssReading {
  const reading: CssReading = { colorUses: new Map(), colorVariables: {}, fonts: [], fontFaces: [] };
  const text = css.replace(/\/\*[\s\S]*?\*\//g, ' ');
  for (const face of text.matchAll(/@font-face\s*{([^}]*)}/gi)) {
    const family = /font-family\s*:\s*([^;]+)/i.exec(face[1]!)?.[1];
    const src = [...(face[1]!.matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/gi))].map((m) => m[1]!);
    if (family) reading.fontFaces.push({ family: unquote(family), src });
  }
  for (const decl of text.matchAll(/([-\w]+)\s*:\s*([^;{}]+)/g)) {
    const name = decl[1]!.toLowerCase();
    const value = decl[2]!.trim();
    if (name === 'font-family' || name === 'font') addFonts(reading.fonts, name === 'font' ? value.replace(/^.*?\d[\w%]*\s+(?=[^\d])/, '') : value);
    if (name.startsWith('--') && /font/.test(name)) addFonts(reading.fonts, value);
    for (const match of value.match(COLOR) ?? []) {
      const hex = toHex(match);
      if (!hex) continue;
      reading.colorUses.set(hex, (reading.colorUses.get(hex) ?? 0) + 1);
      if (name.startsWith('--') && !(name.slice(2) in reading.colorVariables)) reading.colorVariables[name.slice(2)] = hex;
    }
  }
  return reading;
}

function addFonts(into: string[], value: string): void {
  for (const raw of value.split(',')) {
    const family = unquote(raw);
    if (!family || family.startsWith('var(') || GENERIC_FONTS.has(family.toLowerCase()) || into.includes(family)) continue;
    into.push(family);
  }
}

const unquote = (s: string) => s.trim().replace(/^['"]|['"]$/g, '').replace(/\s*!important$/, '').trim();

/** Any CSS colour this reader understands, as #rrggbb; transparent and half-transparent colours are not brand colours. */
export function toHex(color: string): string | null {
  const c = color.trim().toLowerCase();
  if (NAMED[c]) return NAMED[c];
  if (c.startsWith('#')) {
    const h = c.slice(1);
    if (h.length === 3 || h.length === 4) return `#${[...h.slice(0, 3)].map((d) => d + d).join('')}`;
    if (h.length === 6 || h.length === 8) return `#${h.slice(0, 6)}`;
    return null;
  }
  const parts = /\(([^)]*)\)/.exec(c)?.[1]?.split(/[\s,/]+/).filter(Boolean);
  if (!parts || parts.length < 3) return null;
  if (parts[3] !== undefined && parseFloat(parts[3]) < 0.5) return null;
  if (c.startsWith('rgb')) {
    const rgb = parts.slice(0, 3).map((p) => (p.endsWith('%') ? (parseFloat(p) * 255) / 100 : parseFloat(p)));
    return rgbHex(rgb as [number, number, number]);
  }
  const [h, s, l] = [parseFloat(parts[0]!), parseFloat(parts[1]!) / 100, parseFloat(parts[2]!) / 100];
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => (l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)))) * 255;
  return rgbHex([f(0), f(8), f(4)]);
}

const rgbHex = (rgb: [number, number, number]) =>
  rgb.some((v) => Number.isNaN(v)) ? null : `#${rgb.map((v) => Math.round(Math.max(0, Math.min(255, v))).toString(16).padStart(2, '0')).join('')}`;

/** 0 for greys, up to 1 for pure hues: how much a colour reads as a brand colour rather than a neutral. */
export function saturation(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  return max === 0 ? 0 : (max - min) / max;
}

export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
