import { Box, Text } from 'ink';
import { compactChangeLine, relative, type WatchSnapshot } from './workflow-watch.js';

/** What the command needs to show this view, from here (see CrawlView.tsx). */
export { createElement } from 'react';
export { render } from 'ink';

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The live view of `wvr workflows watch`: what runs next, and what the latest runs found. */
export function WorkflowWatchView({ snapshot, nowMs, maxChanges = 6 }: { snapshot: WatchSnapshot; nowMs: number; maxChanges?: number }) {
  return (
    <Box flexDirection="column">
      <Text bold>Upcoming runs</Text>
      {snapshot.upcoming.length === 0 ? (
        <Text dimColor>(no workflows)</Text>
      ) : (
        snapshot.upcoming.map((w) => (
          <Text key={w.id} wrap="truncate-end">
            {relative(w.nextRunAt, nowMs).padEnd(10)} {clip(w.name, 30).padEnd(30)} <Text color={w.status === 'active' ? 'green' : 'yellow'}>{w.status.padEnd(9)}</Text>{' '}
            <Text dimColor>
              {w.schedule} · {w.executions} run(s)
            </Text>
          </Text>
        ))
      )}
      <Box flexDirection="column" marginTop={1}>
        <Text bold>Latest changes</Text>
        {snapshot.latest.length === 0 ? (
          <Text dimColor>(no runs yet)</Text>
        ) : (
          snapshot.latest.slice(0, maxChanges).map((r) => (
            <Box key={r.executionId} flexDirection="column">
              <Text color={r.error ? 'red' : r.netNew + r.dropped + r.changedUrls.length > 0 ? 'cyan' : undefined} wrap="truncate-end">
                {compactChangeLine(r, nowMs)}
              </Text>
              {r.newPages.slice(0, 3).map((p) => (
                <Text key={p.url} wrap="truncate-end">
                  {'  '}+ {clip(p.title || p.url, 50)} <Text dimColor>{p.url}</Text>
                </Text>
              ))}
              {r.changedUrls.slice(0, 3).map((u) => (
                <Text key={u} wrap="truncate-end">
                  {'  '}~ <Text dimColor>{u}</Text>
                </Text>
              ))}
            </Box>
          ))
        )}
      </Box>
    </Box>
  );
}
