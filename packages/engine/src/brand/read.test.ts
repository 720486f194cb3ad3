import { describe, expect, it } from 'vitest';
import { linkedStylesheets, readBrand } from './read.js';
import { toHex } from './css.js';

const page = `<!doctype html><html><head>
<title>Pricing | Northwind</title>
<meta name="description" content="Coffee roasted to order. Shipped the same day.">
<meta name="theme-color" content="#0B5FFF">
<meta property="og:image" content="/social.png">
<link rel="icon" href="/favicon.svg"><link rel="apple-touch-icon" href="/touch.png">
<link rel="stylesheet" href="/css/site.css">
<link href="https://fonts.googleapis.com/css2?family=Playfair+Display:wght@700&display=swap" rel="stylesheet">
<style>.cta { background: #ff7a00; color: #fff }</style>
</head><body>
<header class="site-header"><a href="/" class="brand"><img src="/img/northwind-logo.svg" alt="Northwind"></a></header>
<main><h1>Plans</h1></main></body></html>`;

const css = `:root { --primary: #0b5fff; --secondary: rgb(18, 183, 106); --text: #1a1a1a; }
body { font-family: "Inter", system-ui, sans-serif; background-color: #fafafa; color: var(--text); }
h1, h2 { font-family: 'Playfair Display', serif; }
a { color: #0b5fff } .btn { background: #0B5FFF; border: 1px solid #e5e5e5 }
@font-face { font-family: "Inter"; src: url(/fonts/inter.woff2) format("woff2"); }`;

describe('readBrand', () => {
  const brand = readBrand(page, 'https://northwind.test/pricing', [{ url: 'https://northwind.test/css/site.css', css }]);

  it('names the site from the title and takes the tagline from the description', () => {
    expect(brand.name).toBe('Northwind');
    expect(brand.tagline).toBe('Coffee roasted to order.');
  });

  it('finds the logo image in the header before falling back to og:image', () => {
    expect(brand.logo).toEqual({ url: 'https://northwind.test/img/northwind-logo.svg', source: 'img' });
    expect(brand.favicon).toBe('https://northwind.test/favicon.svg');
    expect(brand.apple_touch_icon).toBe('https://northwind.test/touch.png');
  });

  it('takes primary and secondary from custom properties, background and text from body', () => {
    expect(brand.theme_color).toBe('#0b5fff');
    expect(brand.colors).toMatchObject({ primary: '#0b5fff', secondary: '#12b76a', accent: '#ff7a00', background: '#fafafa', text: '#1a1a1a' });
    expect(brand.colors.palette[0]).toMatchObject({ hex: '#0b5fff', uses: 3, variable: 'primary', neutral: false });
  });

  it('reads body and heading fonts, web fonts and Google Fonts', () => {
    expect(brand.typography.body_font).toBe('Inter');
    expect(brand.typography.heading_font).toBe('Playfair Display');
    expect(brand.typography.fonts).toEqual(['Inter', 'Playfair Display']);
    expect(brand.typography.font_faces).toEqual([{ family: 'Inter', src: ['/fonts/inter.woff2'] }]);
  });

  it('prefers a JSON-LD Organization logo and name', () => {
    const ld = `<script type="application/ld+json">{"@type":"Organization","name":"Northwind Coffee","logo":{"url":"/brand/logo.png"},"slogan":"Fresh every day"}</script>`;
    const withLd = readBrand(page.replace('</head>', `${ld}</head>`), 'https://northwind.test/', []);
    expect(withLd.logo).toEqual({ url: 'https://northwind.test/brand/logo.png', source: 'json-ld' });
    expect(withLd.tagline).toBe('Fresh every day');
  });

  it('lists linked stylesheets resolved against the page', () => {
    expect(linkedStylesheets(page, 'https://northwind.test/pricing')).toEqual([
      'https://northwind.test/css/site.css',
      'https://fonts.googleapis.com/css2?family=Playfair+Display:wght@700&display=swap',
    ]);
  });
});

describe('toHex', () => {
  it('normalises hex, rgb, hsl and named colours and skips transparent ones', () => {
    expect(toHex('#ABC')).toBe('#aabbcc');
    expect(toHex('rgb(255 0 0)')).toBe('#ff0000');
    expect(toHex('hsl(120, 100%, 25%)')).toBe('#008000');
    expect(toHex('navy')).toBe('#000080');
    expect(toHex('rgba(0,0,0,0.1)')).toBeNull();
  });
});
