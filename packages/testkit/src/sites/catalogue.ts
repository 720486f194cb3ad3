import { jsonLd, layout } from '../html.js';
import { escapeHtml, hash, rng } from '../random.js';
import { isJunkPath, junkLinks, robotsTxt, sitemapIndex, urlset } from '../robots.js';
import { gone, html, notFound, type Handler } from '../server.js';
import { CATEGORIES } from './categories.js';
import { catalogueModel, SITEMAP_CHUNK, type CatalogueModel, type CatalogueOptions, type Product } from './catalogue-model.js';
import { junkPage } from './pages.js';

export interface CatalogueSiteOptions extends CatalogueOptions {
  crawlDelaySeconds?: number;
}

const SITE = 'Northwind Goods';
const STOCK_LABEL = { InStock: 'In stock', OutOfStock: 'Out of stock', PreOrder: 'Pre-order' } as const;
// hubs listed by name, so the order of links does not depend on the seed
const BY_NAME = [...CATEGORIES].sort((a, b) => a.name.localeCompare(b.name));
const categoryLink = (slug: string, name: string) => `<a href="/category/${slug}">${escapeHtml(name)}</a>`;

export function catalogueSite(options: CatalogueSiteOptions, getVersion: () => number): Handler {
  const nav: [string, string][] = [['/', 'Home'], ['/categories', 'All categories'], ['/deals', 'Deals']];
  const page = (title: string, main: string, extra: { head?: string; breadcrumbs?: [string, string][] } = {}) =>
    layout({ title, siteName: SITE, nav, sidebar: '<h3>Help</h3><a href="/about">About us</a>', ...extra }, main);
  let cached: CatalogueModel | undefined;

  return (url) => {
    const version = getVersion();
    if (cached?.version !== version) cached = catalogueModel(options, version);
    const model = cached;
    const path = url.pathname;
    if (path === '/robots.txt') return robotsTxt({ origin: url.origin, disallow: ['/private/', '/cart', '/checkout'], crawlDelaySeconds: options.crawlDelaySeconds });
    if (path === '/' || path === '/categories') {
      const featured = [3, 8, 13, 21, 34].filter(model.isLive).map((id) => model.product(id)!);
      return html(page(path === '/' ? 'Home' : 'All categories', `<h1>${SITE}</h1><p>Everything for home, work and play, shipped from our own warehouse.</p>
<h2>Shop by category</h2><ul class="categories">${BY_NAME.map((c) => `<li>${categoryLink(c.slug, c.name)}</li>`).join('')}</ul>
<h2>Featured</h2><ul>${featured.map((p) => `<li><a href="${p.path}">${escapeHtml(p.name)}</a></li>`).join('')}</ul>`));
    }
    if (path === '/deals' || path === '/about') return html(page('About', `<h1>${path === '/deals' ? 'Weekly deals' : 'About us'}</h1><p>Deals change every Monday.</p><p>${categoryLink(BY_NAME[0]!.slug, BY_NAME[0]!.name)}</p>`));
    const category = /^\/category\/([a-z]+)$/.exec(path);
    if (category) return listingPage(model, category[1]!, Number(url.searchParams.get('page') ?? '1'), page);
    const match = /^\/product\/(\d+)-[a-z0-9-]+$/.exec(path);
    if (match) {
      const id = Number(match[1]);
      if (model.wasRemoved(id)) return id % 2 === 0 ? gone() : notFound();
      const p = model.product(id);
      if (!p || p.path !== path) return notFound();
      return productPage(model, p, options.seed, page);
    }
    if (path === '/sitemap.xml') return urlset(url.origin, [{ path: '/' }, ...CATEGORIES.map((c) => ({ path: `/category/${c.slug}` }))]);
    if (path === '/sitemap-index.xml') {
      const parts = Math.ceil(model.liveCount / SITEMAP_CHUNK);
      return sitemapIndex(url.origin, ['/sitemap.xml', ...Array.from({ length: parts }, (_, i) => `/sitemap-products-${i + 1}.xml`)]);
    }
    const part = /^\/sitemap-products-(\d+)\.xml$/.exec(path);
    if (part) {
      const start = (Number(part[1]) - 1) * SITEMAP_CHUNK;
      if (start < 0 || start >= model.liveCount) return notFound();
      const entries = [];
      for (let k = start; k < Math.min(model.liveCount, start + SITEMAP_CHUNK); k++) entries.push({ path: model.product(model.nthLive(k))!.path });
      return urlset(url.origin, entries);
    }
    if (isJunkPath(path)) return junkPage(path, { siteName: SITE, nav });
    return notFound();
  };
}

type Page = (title: string, main: string, extra?: { head?: string; breadcrumbs?: [string, string][] }) => string;

function listingPage(model: CatalogueModel, slug: string, n: number, page: Page) {
  const cat = CATEGORIES.find((c) => c.slug === slug);
  const listing = model.listing(slug, n);
  if (!cat || !listing) return notFound();
  const items = listing.ids.map((id) => model.product(id)!);
  const next = n < listing.pages ? `/category/${slug}?page=${n + 1}` : null;
  const prev = n > 1 ? `/category/${slug}?page=${n - 1}` : null;
  const others = BY_NAME.filter((c) => c.slug !== slug);
  return html(page(`${cat.name}${n > 1 ? ` – page ${n}` : ''}`,
    `<h1>${escapeHtml(cat.name)}</h1><p>Browse ${listing.count} products: ${cat.keywords.slice(0, 4).join(', ')}.</p>
<ul class="products">${items.map((p) => `<li><a href="${p.path}">${escapeHtml(p.name)}</a> <span class="price">${p.priceText}</span></li>`).join('')}</ul>
<div class="pagination">${prev ? `<a href="${prev}" rel="prev">‹ Previous</a>` : ''} Page ${n} of ${listing.pages} ${next ? `<a href="${next}" rel="next">More ${escapeHtml(cat.name)} ›</a>` : ''}</div>
<h2>Other categories</h2><ul>${others.map((c) => `<li>${categoryLink(c.slug, c.name)}</li>`).join('')}</ul>`,
    { head: (next ? `<link rel="next" href="${next}">` : '') + (prev ? `<link rel="prev" href="${prev}">` : ''), breadcrumbs: [['/', 'Home'], [`/category/${slug}`, cat.name]] }));
}

function productPage(model: CatalogueModel, p: Product, seed: number, page: Page) {
  const withMicrodata = p.markup === 'jsonld+microdata' || p.markup === 'microdata';
  const withJsonLd = p.markup === 'jsonld+microdata' || p.markup === 'jsonld';
  const prop = (name: string) => (withMicrodata ? ` itemprop="${name}"` : '');
  const related = model.relatedIds(p.id, rng(seed, `related:${p.id}`)).map((id) => model.product(id)!);
  const offer = withMicrodata
    ? `<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span class="price" itemprop="price" content="${p.price.toFixed(2)}">${p.priceText}</span><meta itemprop="priceCurrency" content="EUR"><link itemprop="availability" href="https://schema.org/${p.availability}"> <span class="stock">${STOCK_LABEL[p.availability]}</span></div>`
    : `<div class="buy"><span class="price">${p.priceText}</span> <span class="stock">${STOCK_LABEL[p.availability]}</span></div>`;
  const rating = withMicrodata
    ? `<div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">Rated <span itemprop="ratingValue">${p.rating}</span> of 5 from <span itemprop="reviewCount">${p.reviewCount}</span> reviews</div>`
    : `<div class="rating">Rated ${p.rating} of 5 from ${p.reviewCount} reviews</div>`;
  // the DOM-only variant spells the values out with labels, half as a table and half as a definition list
  const specs = hash(`spec:${p.id}`) % 2 === 0
    ? `<table class="specs"><tr><th>Brand</th><td>${p.brand}</td></tr><tr><th>SKU</th><td>${p.sku}</td></tr><tr><th>EAN</th><td>${p.gtin13}</td></tr><tr><th>Price</th><td>${p.priceText}</td></tr><tr><th>Availability</th><td>${STOCK_LABEL[p.availability]}</td></tr><tr><th>Category</th><td>${escapeHtml(p.categoryName)}</td></tr></table>`
    : `<dl class="specs"><dt>Brand</dt><dd>${p.brand}</dd><dt>SKU</dt><dd>${p.sku}</dd><dt>EAN</dt><dd>${p.gtin13}</dd><dt>Price</dt><dd>${p.priceText}</dd><dt>Availability</dt><dd>${STOCK_LABEL[p.availability]}</dd><dt>Category</dt><dd>${escapeHtml(p.categoryName)}</dd></dl>`;
  const head = (withJsonLd
    ? jsonLd({
        '@context': 'https://schema.org', '@type': 'Product', name: p.name, sku: p.sku, gtin13: p.gtin13,
        brand: { '@type': 'Brand', name: p.brand }, description: p.description, category: p.categoryName,
        offers: { '@type': 'Offer', price: p.price.toFixed(2), priceCurrency: p.currency, availability: `https://schema.org/${p.availability}` },
        aggregateRating: { '@type': 'AggregateRating', ratingValue: p.rating, reviewCount: p.reviewCount },
      })
    : '') + `<link rel="canonical" href="${p.path}"><meta property="og:type" content="product"><meta name="description" content="${escapeHtml(p.description.slice(0, 150))}">`;
  return html(page(p.name,
    `<div class="product"${withMicrodata ? ' itemscope itemtype="https://schema.org/Product"' : ''}>
<h1${prop('name')}>${escapeHtml(p.name)}</h1>
<p class="brand">by <span${prop('brand')}>${p.brand}</span>${withMicrodata ? `<meta itemprop="sku" content="${p.sku}"><meta itemprop="gtin13" content="${p.gtin13}">` : ''}</p>
${offer}
${rating}
<div class="description"${prop('description')}><p>${escapeHtml(p.description)}</p></div>
${p.markup === 'dom' ? specs : ''}
${junkLinks(p.path, p.id)}
</div>
<h2>Customers also viewed</h2><ul class="related">${related.map((r) => `<li><a href="${r.path}">${escapeHtml(r.name)}</a></li>`).join('')}</ul>
<p>More in ${categoryLink(p.category, p.categoryName)}</p>`,
    { head, breadcrumbs: [['/', 'Home'], [`/category/${p.category}`, p.categoryName]] }));
}
