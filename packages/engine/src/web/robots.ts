/**
 * robots.txt per RFC 9309: groups of user-agent lines followed by rules, `*` wildcards and a
 * `$` end anchor, the longest matching rule wins and Allow wins a tie. Crawl-delay and
 * Sitemap are the common extensions.
 */
interface Rule {
  allow: boolean;
  pattern: string;
  regex: RegExp;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelay: number | null;
}

export interface RobotsRules {
  isAllowed(pathAndQuery: string): boolean;
  /** Seconds between requests asked for by the site, null when unset. */
  crawlDelaySeconds: number | null;
  sitemaps: string[];
}

export const ALLOW_ALL: RobotsRules = { isAllowed: () => true, crawlDelaySeconds: null, sitemaps: [] };
export const DISALLOW_ALL: RobotsRules = { isAllowed: (path) => path === '/robots.txt', crawlDelaySeconds: null, sitemaps: [] };

/** The product token robots.txt groups are matched against: `wvr/0.1.0 (+url)` gives `wvr`. */
export function productToken(userAgent: string): string {
  return (/^[A-Za-z_-]+/.exec(userAgent.trim())?.[0] ?? userAgent).toLowerCase();
}

export function parseRobots(text: string, userAgent: string): RobotsRules {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [], crawlDelay: null };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (key === 'sitemap') {
      if (value) sitemaps.push(value);
    } else if (current && (key === 'allow' || key === 'disallow')) {
      // An empty Disallow means "nothing is disallowed": it adds no rule.
      if (value) current.rules.push({ allow: key === 'allow', pattern: value, regex: patternRegex(value) });
    } else if (current && key === 'crawl-delay') {
      const seconds = Number.parseFloat(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelay = seconds;
    }
  }

  const token = productToken(userAgent);
  let chosen = groups.filter((g) => g.agents.includes(token));
  if (chosen.length === 0) chosen = groups.filter((g) => g.agents.includes('*'));
  const rules = chosen.flatMap((g) => g.rules);
  const delays = chosen.map((g) => g.crawlDelay).filter((d): d is number => d !== null);
  return {
    isAllowed: (pathAndQuery) => isAllowed(rules, pathAndQuery),
    crawlDelaySeconds: delays.length > 0 ? Math.max(...delays) : null,
    sitemaps,
  };
}

function isAllowed(rules: Rule[], pathAndQuery: string): boolean {
  if (pathAndQuery === '/robots.txt') return true;
  const target = normalizeEscapes(pathAndQuery);
  let best: Rule | null = null;
  for (const rule of rules) {
    if (!rule.regex.test(target)) continue;
    const longer = !best || rule.pattern.length > best.pattern.length;
    const tieAllow = best !== null && rule.pattern.length === best.pattern.length && rule.allow && !best.allow;
    if (longer || tieAllow) best = rule;
  }
  return best ? best.allow : true;
}

function patternRegex(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = normalizeEscapes(anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}

/** Compares paths in one form: unreserved characters decoded, other escapes upper-cased. */
function normalizeEscapes(value: string): string {
  return value.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}
