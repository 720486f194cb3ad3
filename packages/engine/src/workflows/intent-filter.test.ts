import { describe, expect, it } from 'vitest';
import { compareResults, fingerprint, type ResultItem } from './changes.js';
import { classifyResults, monitoringIntent } from './intent-filter.js';

const r = (url: string, title: string, text?: string): ResultItem => ({ url, title, description: '', published_date: null, ...(text ? { text, fingerprint: fingerprint(text) } : {}) });

describe('intent relevance filter', () => {
  it('takes the intent from intent, then description, then the query, then the name (which disables filtering)', () => {
    expect(monitoringIntent({ intent: 'i', description: 'd', operationQuery: 'q', name: 'n' })).toMatchObject({ text: 'i', source: 'intent', filtering: true });
    expect(monitoringIntent({ intent: null, description: ' ', operationQuery: 'q', name: 'n' })).toMatchObject({ source: 'operation_config.query' });
    expect(monitoringIntent({ intent: null, description: null, operationQuery: null, name: 'n' })).toEqual({ text: 'n', source: 'name', filtering: false });
  });

  it('classifies NEW, CONTEXT, UPDATE and IRRELEVANT', () => {
    const previous = { id: 'p', results: [r('http://a.test/old', 'solar inverter review', 'v1'), r('http://a.test/same', 'solar inverter prices', 'same')] };
    const current = [r('http://a.test/new', 'new solar inverter launched', 'n'), r('http://a.test/old', 'solar inverter review', 'v2'), r('http://a.test/same', 'solar inverter prices', 'same'), r('http://a.test/cat', 'cute cat pictures', 'c')];
    const changes = compareResults(previous, current, { pages: true });
    const f = classifyResults(monitoringIntent({ intent: 'solar inverter launches', description: null, operationQuery: null, name: 'x' }), current, changes);
    expect(f.classifications.map((c) => c.relevance)).toEqual(['NEW', 'UPDATE', 'CONTEXT', 'IRRELEVANT']);
    expect(f).toMatchObject({ filtered_count: 1, filtered_items: [{ url: 'http://a.test/cat', title: 'cute cat pictures' }], signal_suppressed: false });
  });

  it('suppresses the signal only when every change is irrelevant, and never filters on the name', () => {
    const current = [r('http://a.test/cat', 'cute cat pictures')];
    const changes = compareResults(null, current);
    expect(classifyResults(monitoringIntent({ intent: 'solar inverter launches', description: null, operationQuery: null, name: 'x' }), current, changes).signal_suppressed).toBe(true);
    const byName = classifyResults(monitoringIntent({ intent: null, description: null, operationQuery: null, name: 'solar' }), current, changes);
    expect(byName).toMatchObject({ filtered_count: 0, signal_suppressed: false, filtering_enabled: false });
  });
});
