/**
 * The raw ceiling: an undici GET loop over the same URLs at the same concurrency, reading each
 * body to the end and parsing nothing. No crawler can beat it on this machine.
 */
import { Agent, request } from 'undici';
import { runContender } from './protocol.js';

await runContender('raw undici GET loop', async ({ urls, pages, concurrency }) => {
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  const list = urls.slice(0, pages);
  let next = 0;
  let ok = 0;
  let failed = 0;
  let bytes = 0;
  const worker = async () => {
    while (next < list.length) {
      const url = list[next++]!;
      try {
        const res = await request(url, { dispatcher: agent, headers: { 'user-agent': 'bench-raw' } });
        const body = await res.body.text();
        bytes += body.length;
        if (res.statusCode >= 200 && res.statusCode < 300) ok++;
        else failed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await agent.close();
  return { pages: ok, failed, notes: { bytes } };
});
