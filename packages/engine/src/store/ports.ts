/**
 * The store's ports: one per capability, each a small async interface in the capability's own
 * vocabulary (no SQL, no drizzle types). A driver (`sqlite/`, later `pg/`) implements every port.
 * Add one line per port; the port's interface lives in `ports/<capability>.ts`.
 */
import type { JobsPort } from './ports/jobs.js';
import type { LedgerPort } from './ports/ledger.js';
import type { SchedulesPort, WorkflowsPort } from './ports/workflows.js';

export interface StorePorts {
  jobs: JobsPort;
  workflows: WorkflowsPort;
  schedules: SchedulesPort;
  ledger: LedgerPort;
}
