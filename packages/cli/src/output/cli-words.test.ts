import { describe, expect, it } from 'vitest';
import { cliSuggestions, inCliWords } from './cli-words.js';

describe('errors in CLI words', () => {
  it('gives flag and command suggestions for a short balance, not routes', () => {
    const api = ['Use dry_run or POST /v1/crawls/estimate to see the cost before running.', 'Wait for the monthly grant or upgrade the plan.'];
    const cli = cliSuggestions('insufficient_credits', api)!;
    expect(cli.join(' ')).toContain('--dry-run');
    expect(cli.join(' ')).toContain('wvr credits grant');
    expect(cli.join(' ')).not.toMatch(/\/v1\//);
  });

  it('turns request fields into flags and drops route references elsewhere', () => {
    expect(inCliWords('Archive completed sessions (POST /v1/sessions/{id}/archive) or delete ones you no longer need.')).toBe(
      'Archive completed sessions or delete ones you no longer need.',
    );
    expect(inCliWords('Lower max_pages or use dry_run.')).toBe('Lower --max-pages or use --dry-run.');
    expect(cliSuggestions('other', ['Raise max_depth.'])).toEqual(['Raise --max-depth.']);
  });
});
