/**
 * The store's ports: one per capability, each a small async interface in the capability's own
 * vocabulary (no SQL, no drizzle types). A driver (`sqlite/`, later `pg/`) implements every port.
 * Add one line per port; the port's interface lives in `ports/<capability>.ts`.
 */
import type { HostGatePort } from './ports/hosts.js';
import type { AccountsPort, RateLimitsPort } from './ports/accounts.js';
import type { JobsPort } from './ports/jobs.js';
import type { NotifyPort } from './ports/notify.js';
import type { WebCachePort } from './ports/web-cache.js';
import type { LedgerPort } from './ports/ledger.js';
import type { SchedulesPort, WorkflowsPort } from './ports/workflows.js';
import type { SessionsPort } from './ports/sessions.js';
import type { SearchIndexPort, SearchJobsPort } from './ports/search.js';
import type { CrawlPort } from './ports/crawl.js';
import type { UsersPort } from './ports/users.js';
import type { SharesPort } from './ports/shares.js';

export interface StorePorts {
  jobs: JobsPort;
  workflows: WorkflowsPort;
  schedules: SchedulesPort;
  hosts: HostGatePort;
  accounts: AccountsPort;
  rateLimits: RateLimitsPort;
  notify: NotifyPort;
  webCache: WebCachePort;
  sessions: SessionsPort;
  searchJobs: SearchJobsPort;
  searchIndex: SearchIndexPort;
  ledger: LedgerPort;
  crawl: CrawlPort;
  users: UsersPort;
  shares: SharesPort;
}
