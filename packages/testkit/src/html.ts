import { escapeHtml } from './random.js';

export interface LayoutOptions {
  title: string;
  siteName: string;
  nav: [href: string, label: string][];
  head?: string;
  lang?: string;
  breadcrumbs?: [href: string, label: string][];
  sidebar?: string;
}

/** A page that looks like a real site: cookie banner, header, nav, breadcrumbs, sidebar and footer around the content. */
export function layout(options: LayoutOptions, main: string): string {
  const link = ([href, label]: [string, string]) => `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
  return `<!doctype html>
<html lang="${options.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} | ${escapeHtml(options.siteName)}</title>
${options.head ?? ''}
</head>
<body>
<div class="cookie-consent">This site uses cookies to remember your preferences. <a href="/privacy">Learn more</a></div>
<header class="site-header"><a class="logo" href="/">${escapeHtml(options.siteName)}</a>
<nav class="main-nav">${options.nav.map(link).join(' ')}</nav></header>
${options.breadcrumbs ? `<nav class="breadcrumbs">${options.breadcrumbs.map(link).join(' › ')}</nav>` : ''}
<main>${main}</main>
${options.sidebar ? `<aside class="sidebar">${options.sidebar}</aside>` : ''}
<footer class="site-footer"><p>© 2026 ${escapeHtml(options.siteName)}. All rights reserved.</p><a href="/about">About</a> <a href="/privacy">Privacy</a> <a href="/login">Sign in</a></footer>
</body>
</html>`;
}

export const jsonLd = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
