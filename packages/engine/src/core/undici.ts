import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import { onFirstUse } from './on-first-use.js';

const require = createRequire(import.meta.url);

/** What the engine uses of undici: its agents, and `request`. */
export type HttpClient = Pick<typeof Undici, 'Agent' | 'ProxyAgent' | 'request'>;

/**
 * undici, the HTTP client of the fetcher, webhooks, AI and search providers, loaded when first asked for: most `wvr`
 * commands fetch nothing (credits, tokens, reading a crawl back) and never pay for it.
 *
 * Only the parts the engine uses are loaded. undici's index loads every other part as well (fetch, WebSocket,
 * EventSource, mocks, caches, interceptors, the HTTP/2 cleartext and SOCKS agents): 75 to 105 ms of the main thread
 * before a process's first request on a 2-core machine, against 25 to 40 ms for its agents and request API alone, and
 * a crawl's first page waits for it (docs/benchmarks.md). undici 7 publishes no exports map, so its own files can be
 * required; a version that moved or reshaped them gets the index instead.
 */
export const undici = onFirstUse<HttpClient>(() => parts() ?? (require('undici') as HttpClient));

/** The files of undici's `lib` that `parts` takes, as they export. */
interface Lib {
  Agent: HttpClient['Agent'];
  ProxyAgent: HttpClient['ProxyAgent'];
  Dispatcher: { prototype: object };
  api: { request: unknown };
  util: { parseURL(url: string | URL): URL };
  global: { getGlobalDispatcher(): Undici.Dispatcher };
}

function parts(): HttpClient | undefined {
  let lib: Lib;
  try {
    lib = {
      Agent: require('undici/lib/dispatcher/agent.js'),
      ProxyAgent: require('undici/lib/dispatcher/proxy-agent.js'),
      Dispatcher: require('undici/lib/dispatcher/dispatcher.js'),
      api: require('undici/lib/api/index.js'),
      util: require('undici/lib/core/util.js'),
      global: require('undici/lib/global.js'),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
  const { Agent, ProxyAgent, Dispatcher, api, util, global } = lib;
  if (![Agent, ProxyAgent, Dispatcher, api.request, util.parseURL, global.getGlobalDispatcher].every((part) => typeof part === 'function')) return undefined;
  // As undici's index does: every dispatcher answers `request` (and undici's other call styles).
  Object.assign(Dispatcher.prototype, api);
  const request = ((url: string | URL, options: Partial<Undici.Dispatcher.RequestOptions> & { dispatcher?: Undici.Dispatcher } = {}) => {
    const { dispatcher = global.getGlobalDispatcher(), ...rest } = options;
    const { origin, pathname, search } = util.parseURL(url);
    // undici's own default, so that this and the index (the fallback) send the same request.
    return dispatcher.request({ ...rest, origin, path: `${pathname}${search}`, method: rest.method || (rest.body ? 'PUT' : 'GET') });
  }) as HttpClient['request'];
  return { Agent, ProxyAgent, request };
}
