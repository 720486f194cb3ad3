import { z } from 'zod';
import { Uuid } from '../core/schemas.js';
import { DAY } from '../core/clock.js';

/** A monitor is a workflow seen from an agent's side: its reports are executions, its story their changes. */

export const ChronicleQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).describe('Most recent reports to tell, 1 to 100'),
});

const Page = z.object({ url: z.string(), title: z.string(), published_date: z.string().nullable() });

export const ChronicleEntry = z.object({
  execution_id: z.string(),
  seq: z.number().int(),
  at: z.string().describe('When the run finished'),
  trigger: z.enum(['manual', 'schedule']),
  status: z.enum(['completed', 'failed']),
  summary: z.string().describe('What happened, in one sentence'),
  new: z.array(Page),
  dropped: z.array(z.string()),
  changed: z.array(z.string()),
  condition_met: z.boolean(),
  credits_consumed: z.number().int(),
});

export const MonitorChronicleSchema = z
  .object({
    workflow_id: z.string(),
    name: z.string(),
    status: z.string(),
    reports_total: z.number().int(),
    totals: z.object({ runs: z.number().int(), new: z.number().int(), dropped: z.number().int(), changed: z.number().int() }),
    entries: z.array(ChronicleEntry).describe('Oldest first'),
  })
  .meta({ id: 'MonitorChronicle' });
export type MonitorChronicle = z.infer<typeof MonitorChronicleSchema>;

export const MAX_DIGEST_DAYS = 90;

export const DigestQuery = z
  .object({
    since: z.iso.datetime({ offset: true }).optional().describe('Start of the window (ISO 8601); default: 24 hours before until'),
    until: z.iso.datetime({ offset: true }).optional().describe('End of the window (ISO 8601); default: now'),
  })
  .superRefine((q, ctx) => {
    if (q.since && q.until && Date.parse(q.since) >= Date.parse(q.until)) {
      ctx.addIssue({ code: 'custom', path: ['since'], message: 'must be before until', params: { code: 'window_invalid' } });
    }
    if (q.since && q.until && Date.parse(q.until) - Date.parse(q.since) > MAX_DIGEST_DAYS * DAY) {
      ctx.addIssue({ code: 'custom', path: ['since'], message: `must be at most ${MAX_DIGEST_DAYS} days before until`, params: { code: 'window_too_long' } });
    }
  });

export const MonitorDigestSchema = z
  .object({
    since: z.string(),
    until: z.string(),
    monitors_total: z.number().int(),
    monitors_with_changes: z.number().int(),
    totals: z.object({ runs: z.number().int(), new: z.number().int(), dropped: z.number().int(), changed: z.number().int() }),
    monitors: z
      .array(
        z.object({
          workflow_id: z.string(),
          name: z.string(),
          status: z.string(),
          runs: z.number().int(),
          new_count: z.number().int(),
          dropped_count: z.number().int(),
          changed_count: z.number().int(),
          condition_met: z.boolean(),
          highlights: z.array(Page).describe('Up to five new pages, newest run first'),
          last_run_at: z.string().nullable(),
          summary: z.string(),
        }),
      )
      .describe('Most significant first: stop conditions met, then most changes'),
  })
  .meta({ id: 'MonitorDigest' });
export type MonitorDigest = z.infer<typeof MonitorDigestSchema>;

export const MonitorRecommendationsSchema = z
  .object({
    workflow_id: z.string(),
    based_on_reports: z.number().int(),
    based_on_results: z.number().int(),
    queries: z.array(z.object({ query: z.string(), reason: z.string() })),
    urls: z.array(z.object({ url: z.string(), title: z.string().nullable(), reason: z.string() })),
    domains: z.array(z.object({ domain: z.string(), results: z.number().int(), new: z.boolean(), reason: z.string() })),
    entities: z.array(z.object({ entity: z.string(), mentions: z.number().int() })),
    gaps: z.array(z.string()),
  })
  .meta({ id: 'MonitorRecommendations' });
export type MonitorRecommendations = z.infer<typeof MonitorRecommendationsSchema>;

export const MonitorIdParams = z.object({ id: Uuid.describe('Workflow (monitor) id') });
