import type { EmailMessage } from './email.js';
import type { EventKind, WebhookPayload } from './schemas.js';

const SUBJECTS: Record<EventKind, string> = {
  'workflow.execution.completed': 'Workflow run completed',
  'workflow.changes.detected': 'Changes detected',
  'workflow.completed': 'Workflow completed',
  'workflow.execution.failed': 'Workflow run failed',
  'crawl.completed': 'Crawl completed',
  'search.completed': 'Search completed',
};

/** A plain-text email for an event: a subject a person can scan, then the full event as JSON. */
export function emailFor(payload: WebhookPayload): Omit<EmailMessage, 'to'> {
  const named = payload.data.workflow_name ?? payload.data.name;
  const name = typeof named === 'string' ? `: ${named}` : '';
  return {
    subject: `[wvr] ${SUBJECTS[payload.type]}${name}`,
    text: [`${SUBJECTS[payload.type]} (${payload.type}) at ${payload.timestamp}.`, '', JSON.stringify(payload.data, null, 2), '', `Event id: ${payload.id}`].join('\n'),
  };
}
