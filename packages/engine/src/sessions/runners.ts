import type { z } from 'zod';
import type { Principal } from '../accounts/schemas.js';
import { errors } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import { SessionAskBody, SessionCrawlBody, SessionSearchBody } from './schemas.js';

type SearchOut = Omit<z.output<typeof SessionSearchBody>, 'filter_seen_urls'>;
type CrawlOut = Omit<z.output<typeof SessionCrawlBody>, 'filter_seen_urls'>;
type AskOut = z.output<typeof SessionAskBody>;

/**
 * What the search, crawl and ask services offer sessions. Each receives the plain request with
 * session_id set, and itself calls sessions.beginOperation / finishOperation around its work,
 * exactly as for a plain request that carries session_id.
 */
export interface SessionRunnerSet {
  search: (principal: Principal, body: SearchOut & { session_id: string }, options: { filterSeenUrls: boolean }) => Promise<unknown>;
  crawl: (principal: Principal, body: CrawlOut & { session_id: string }, options: { filterSeenUrls: boolean }) => Promise<unknown>;
  ask: (principal: Principal, body: AskOut & { session_id: string }) => Promise<unknown>;
}

interface SessionGate {
  /** Throws 404 / 403 / 409 for a session the caller may not run operations in. */
  assertUsable(principal: Principal, sessionId: string): unknown;
}

/** Routes POST /v1/sessions/{id}/search|crawl|ask to the capability that does the work. */
export class SessionRunners {
  private services: Partial<SessionRunnerSet> = {};

  constructor(private readonly gate: SessionGate) {}

  connect(services: Partial<SessionRunnerSet>): void {
    this.services = { ...this.services, ...services };
  }

  async search(principal: Principal, sessionId: string, body: unknown): Promise<unknown> {
    const { filter_seen_urls, ...rest } = parseInput(SessionSearchBody, body);
    this.gate.assertUsable(principal, sessionId);
    return this.service('search')(principal, { ...rest, session_id: sessionId }, { filterSeenUrls: filter_seen_urls });
  }

  async crawl(principal: Principal, sessionId: string, body: unknown): Promise<unknown> {
    const { filter_seen_urls, ...rest } = parseInput(SessionCrawlBody, body);
    this.gate.assertUsable(principal, sessionId);
    return this.service('crawl')(principal, { ...rest, session_id: sessionId }, { filterSeenUrls: filter_seen_urls });
  }

  async ask(principal: Principal, sessionId: string, body: unknown): Promise<unknown> {
    const input = parseInput(SessionAskBody, body);
    this.gate.assertUsable(principal, sessionId);
    return this.service('ask')(principal, { ...input, session_id: sessionId });
  }

  private service<K extends keyof SessionRunnerSet>(kind: K): SessionRunnerSet[K] {
    const found = this.services[kind];
    if (!found) {
      throw errors.conflict('capability_unavailable', `This engine has no ${kind} service connected, so sessions cannot run ${kind} operations.`, {
        details: { capability: kind },
      });
    }
    return found;
  }
}
