import { Box, Text } from 'ink';
import { bar, timing, type CrawlProgress } from './crawl-progress.js';

/**
 * What the command needs to show this view, from here: the CLI's bundle holds ink and React, and a module of it
 * imported dynamically has its CommonJS packages' exports under `default` only, where a static import names them.
 */
export { createElement } from 'react';
export { render } from 'ink';

const statusColor: Record<CrawlProgress['status'], string> = {
  pending: 'yellow',
  running: 'cyan',
  completed: 'green',
  failed: 'red',
  cancelled: 'gray',
};

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The live crawl view: budget bar, rate, queue, errors, and the most important pages so far. */
export function CrawlView({ progress: p, width = 80 }: { progress: CrawlProgress; width?: number }) {
  const rate = p.pagesPerSecond === null ? '-' : p.pagesPerSecond.toFixed(1);
  const percent = p.budget > 0 ? Math.round((Math.min(p.pages, p.budget) / p.budget) * 100) : 0;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>crawl {p.id}</Text> <Text color={statusColor[p.status]}>{p.status}</Text>
      </Text>
      <Text>
        <Text color="cyan">{bar(p.pages, p.budget, 30)}</Text> {p.pages}/{p.budget} pages ({percent}%) · {timing(p)}
      </Text>
      <Text>
        {rate} pages/s · queue {p.queued} · <Text color={p.failed > 0 ? 'red' : undefined}>{p.failed} error(s)</Text> · {p.skipped} duplicate(s) ·{' '}
        {p.filtered} filtered · {p.credits} credit(s)
      </Text>
      {p.lastFailure ? (
        <Text color="red" wrap="truncate-end">
          last failure: {p.lastFailure}
        </Text>
      ) : null}
      {p.error ? <Text color="red">error: {p.error}</Text> : null}
      <Box flexDirection="column" marginTop={1}>
        <Text bold>Best pages so far</Text>
        {p.best.length === 0 ? (
          <Text dimColor>(none yet)</Text>
        ) : (
          p.best.map((page) => (
            <Text key={page.url} wrap="truncate-end">
              {page.importance.toFixed(3)} {clip(page.title ?? '(untitled)', 36).padEnd(36)} <Text dimColor>{clip(page.url, Math.max(20, width - 48))}</Text>
            </Text>
          ))
        )}
      </Box>
    </Box>
  );
}
