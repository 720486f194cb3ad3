/**
 * The engine's errors speak to API callers (fields, routes). On the command line the same advice is
 * given in flags and commands: known codes get CLI suggestions; elsewhere request fields become the
 * flags that set them and route references are dropped.
 */
const SUGGESTIONS: Record<string, string[]> = {
  insufficient_credits: [
    'Lower --max-pages, or drop --schema, --classify and --intent (they double the price of a page).',
    'See the price before running with --dry-run.',
    'On the machine holding the data folder: wvr credits grant --amount N --user EMAIL.',
  ],
  rate_limit_exceeded: ['Wait for the time given, then run the command again.'],
};

const FLAGS: Record<string, string> = {
  max_pages: '--max-pages',
  max_depth: '--max-depth',
  dry_run: '--dry-run',
  extraction_schema: '--schema',
  classify_documents: '--classify',
  intent: '--intent',
  expansion: '--expansion',
  session_id: '--session',
};

const ROUTE = /\s*\((?:GET|POST|PUT|PATCH|DELETE) \/v1\/[^)]*\)|(?:,? (?:with|or|use) )?(?:GET|POST|PUT|PATCH|DELETE) \/v1\/\S+/g;

export function cliSuggestions(code: string | undefined, suggestions: string[] | undefined): string[] | undefined {
  if (code && SUGGESTIONS[code]) return SUGGESTIONS[code];
  return suggestions?.map(inCliWords).filter((s) => s.length > 0);
}

export function inCliWords(text: string): string {
  return text
    .replace(ROUTE, '')
    .replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (field) => FLAGS[field] ?? field)
    .replace(/\s+([.,;])/g, '$1')
    .trim();
}
