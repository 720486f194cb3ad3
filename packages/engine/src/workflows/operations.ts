import type { ResultItem } from './changes.js';

/**
 * What a patrol needs from the search and crawl capabilities, given by constructor argument.
 * These run WITHOUT charging: the workflow execution is priced and charged as a whole.
 * A capability that is not wired yet is simply absent; executions that need it fail with
 * `workflow_operation_unavailable`.
 */
export interface WorkflowOperations {
  search?(userId: string, input: { query: string; max_results: number }): Promise<Omit<ResultItem, 'text' | 'fingerprint'>[]>;
  /** Pages with their clean text; the executor fingerprints them. */
  crawl?(userId: string, input: { urls: string[]; max_pages: number; config: Record<string, unknown> }): Promise<(Omit<ResultItem, 'fingerprint'> & { text: string })[]>;
}
