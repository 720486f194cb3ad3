/**
 * The MCP toolset. Every tool is one API operation under another name, so a tool call runs
 * exactly the route an HTTP caller would: same validation, same scopes, same error body.
 */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  /** The route's operationId (see routes/). */
  operationId: string;
}

export const MCP_TOOLS: readonly McpTool[] = [
  {
    name: 'monitors_create',
    title: 'Create a monitor',
    operationId: 'createWorkflow',
    description:
      'Create a monitor: a scheduled workflow that repeats a search or crawl, reports what changed since the last run, and stops when its condition is met. Use dry_run to see the cost first.',
  },
  { name: 'monitors_list', title: 'List monitors', operationId: 'listWorkflows', description: 'List your monitors (and those shared with you), with filters and paging.' },
  { name: 'monitors_get', title: 'Get a monitor', operationId: 'getWorkflow', description: 'One monitor with its schedule, stop condition and most recent reports.' },
  { name: 'monitors_update', title: 'Update a monitor', operationId: 'updateWorkflow', description: 'Change a monitor: name, operation, stop condition, interval, max executions or status (pause and resume with status).' },
  { name: 'monitors_delete', title: 'Delete a monitor', operationId: 'deleteWorkflow', description: 'Delete a monitor and stop its scheduled runs.' },
  {
    name: 'monitors_list_reports',
    title: 'List a monitor’s reports',
    operationId: 'listWorkflowExecutions',
    description: 'A monitor’s reports (its executions), newest first: results, what changed, credits and whether the stop condition was met.',
  },
  {
    name: 'monitors_chronicle',
    title: 'A monitor’s chronicle',
    operationId: 'getWorkflowChronicle',
    description: 'The time-ordered story of one monitor: each run’s new, dropped and changed items, in plain sentences with the URLs behind them.',
  },
  { name: 'monitors_share', title: 'Share a monitor', operationId: 'shareWorkflow', description: 'Share a monitor publicly or with one of your organizations, or stop sharing it.' },
  {
    name: 'monitors_digest',
    title: 'Digest of changes',
    operationId: 'getWorkflowDigest',
    description: 'What changed across all your monitors in a time window (default: the last 24 hours), most significant first.',
  },
  {
    name: 'monitors_expansion_recommendations',
    title: 'Expansion recommendations',
    operationId: 'getWorkflowRecommendations',
    description: 'New queries and URLs worth monitoring, proposed from what a monitor has found: salient entities, new domains and gaps.',
  },
  { name: 'credits_balance', title: 'Credits balance', operationId: 'getCredits', description: 'Your credit balance, plan, monthly grant and recent ledger entries.' },
  { name: 'user_me', title: 'Who am I', operationId: 'getProfile', description: 'Your account: email, plan, organizations, rate limits and this token’s scopes.' },
  {
    name: 'brand_design_system',
    title: 'Brand design system',
    operationId: 'getBrandDesignSystem',
    description: 'Read a site’s brand system from a page and its stylesheets: name, tagline, logo, favicon, colours (primary, secondary, accent, background, text) and fonts. 1 credit.',
  },
];
