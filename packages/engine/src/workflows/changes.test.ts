import { describe, expect, it } from 'vitest';
import { compareResults, fingerprint, urlKey, type ResultItem } from './changes.js';

const item = (url: string, extra: Partial<ResultItem> = {}): ResultItem => ({ url, title: `T ${url}`, description: `about ${url}`, published_date: null, ...extra });

describe('change tracking', () => {
  it('counts every URL as new on the first execution', () => {
    const c = compareResults(null, [item('http://a.test/1'), item('http://a.test/2')]);
    expect(c).toMatchObject({ net_new_count: 2, dropped_count: 0, retained_count: 0, change_rate: 100, previous_execution_id: null });
    expect(c.net_new_urls[0]).toEqual({ url: 'http://a.test/1', title: 'T http://a.test/1', snippet: 'about http://a.test/1', published_date: null });
  });

  it('computes new, dropped, retained and change_rate over the unique URLs of both executions', () => {
    const previous = { id: 'prev', results: ['1', '2', '3', '4'].map((n) => item(`http://a.test/${n}`)) };
    const c = compareResults(previous, ['3', '4', '5'].map((n) => item(`http://a.test/${n}`)));
    expect(c).toMatchObject({ net_new_count: 1, dropped_count: 2, retained_count: 2, previous_execution_id: 'prev', dropped_urls: ['http://a.test/1', 'http://a.test/2'] });
    expect(c.change_rate).toBe(60); // (1 + 2) / 5 unique
  });

  it('treats a fragment or trailing slash as the same page', () => {
    expect(urlKey('http://A.test/x/#top')).toBe(urlKey('http://a.test/x'));
    const c = compareResults({ id: 'p', results: [item('http://a.test/x/')] }, [item('http://a.test/x#y')]);
    expect(c.retained_count).toBe(1);
  });

  it('diffs the clean text of retained pages whose fingerprint changed', () => {
    const page = (text: string) => item('http://a.test/p', { text, fingerprint: fingerprint(text) });
    const c = compareResults({ id: 'p', results: [page('Price is 10 euros. In stock.'), item('http://a.test/q', { text: 'same', fingerprint: fingerprint('same') })] }, [page('Price is 12 euros. In stock.'), item('http://a.test/q', { text: 'same ', fingerprint: fingerprint('same ') })], { pages: true });
    expect(c.changed_urls).toEqual(['http://a.test/p']);
    expect(c.page_diffs![0]!.diff).toContain('-Price is 10 euros.');
    expect(c.page_diffs![0]!.diff).toContain('+Price is 12 euros.');
  });
});
