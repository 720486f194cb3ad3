import { rng, sentence, slugify } from '../random.js';

/**
 * The applications of the local web: pages whose text and links exist only after their scripts
 * ran. The model is the truth: every page's texts and links, computed here, never by fetching.
 */
export interface AppPage {
  /** Path on the apps origin. */
  path: string;
  title: string;
  /** Every text block the rendered page shows (headings and paragraphs). */
  texts: string[];
  /** Every in-app link the rendered page shows (paths). */
  links: string[];
}

export interface Guide {
  slug: string;
  title: string;
  paragraphs: string[];
}

export interface Item {
  id: number;
  name: string;
  summary: string;
  paragraphs: string[];
}

export interface Post {
  id: number;
  headline: string;
  teaser: string;
  paragraphs: string[];
}

export interface AppsModel {
  version: number;
  guides: Guide[];
  items: Item[];
  posts: Post[];
  /** Posts per "load more" page of the feed. */
  feedPageSize: number;
  pages: AppPage[];
}

const GUIDE_TOPICS = ['Routing tables', 'State machines', 'Offline caches', 'Form validation', 'Keyboard shortcuts', 'Theme tokens'];
const ITEM_NAMES = ['Granite kettle', 'Walnut desk lamp', 'Linen apron', 'Copper colander', 'Felt slippers', 'Oak spice rack', 'Wool throw', 'Clay teapot'];
const TOPIC_WORDS = ['component', 'render', 'route', 'state', 'signal', 'hydration', 'bundle', 'module', 'event', 'cache'];
const FEED_PAGES = 4;
export const FEED_PAGE_SIZE = 5;

/** Same seed and version, same applications. Version 2 edits one item, adds one and drops the last feed post. */
export function appsModel(seed: number, version: number): AppsModel {
  const guides = GUIDE_TOPICS.map((title) => {
    const random = rng(seed, `guide:${title}`);
    return { slug: slugify(title), title, paragraphs: [0, 1, 2].map(() => sentence(random, TOPIC_WORDS, 16)) };
  });
  const items = ITEM_NAMES.map((name, i) => {
    const random = rng(seed, `item:${name}`);
    return { id: i + 1, name, summary: sentence(random, TOPIC_WORDS, 12), paragraphs: [0, 1].map(() => sentence(random, TOPIC_WORDS, 18)) };
  });
  if (version >= 2) {
    items[2] = { ...items[2]!, summary: `Now sold in a second colour. ${items[2]!.summary}` };
    const random = rng(seed, 'item:new');
    items.push({ id: items.length + 1, name: 'Birch bread board', summary: sentence(random, TOPIC_WORDS, 12), paragraphs: [sentence(random, TOPIC_WORDS, 18)] });
  }
  const posts = Array.from({ length: FEED_PAGES * FEED_PAGE_SIZE - (version >= 2 ? 1 : 0) }, (_, i) => {
    const random = rng(seed, `post:${i + 1}`);
    return { id: i + 1, headline: `Release note ${i + 1}: ${sentence(random, TOPIC_WORDS, 5).slice(0, -1)}`, teaser: sentence(random, TOPIC_WORDS, 14), paragraphs: [0, 1].map(() => sentence(random, TOPIC_WORDS, 16)) };
  });

  const pages: AppPage[] = [
    { path: '/router/', title: 'Guides', texts: ['Guides', ...guides.map((g) => g.title)], links: guides.map((g) => `/router/guide/${g.slug}`) },
    ...guides.map((g) => ({ path: `/router/guide/${g.slug}`, title: g.title, texts: [g.title, ...g.paragraphs], links: ['/router/'] })),
    { path: '/data/', title: 'Catalogue', texts: ['Catalogue', ...items.flatMap((item) => [item.name, item.summary])], links: items.map((item) => `/data/item/${item.id}`) },
    ...items.map((item) => ({ path: `/data/item/${item.id}`, title: item.name, texts: [item.name, item.summary, ...item.paragraphs], links: ['/data/'] })),
    { path: '/feed/', title: 'Release notes', texts: ['Release notes', ...posts.flatMap((p) => [p.headline, p.teaser])], links: posts.map((p) => `/feed/post/${p.id}`) },
    ...posts.map((p) => ({ path: `/feed/post/${p.id}`, title: p.headline, texts: [p.headline, ...p.paragraphs], links: ['/feed/'] })),
  ];
  return { version, guides, items, posts, feedPageSize: FEED_PAGE_SIZE, pages };
}
