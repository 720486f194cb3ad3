import type { z } from 'zod';
import type { WorkflowMode as Mode, WorkflowStatus as Status, WorkflowType as Type } from '../../workflows/schemas.js';

type WorkflowMode = z.infer<typeof Mode>;
type WorkflowStatus = z.infer<typeof Status>;
type WorkflowType = z.infer<typeof Type>;

type Json = Record<string, unknown>;

/**
 * One workflow as stored. JSON fields hold the validated request parts as given, so a workflow
 * re-reads exactly what its creator asked for. Times are ISO strings (they sort as time).
 */
export interface WorkflowRecord {
  id: string;
  userId: string;
  name: string;
  description: string | null;
  mode: WorkflowMode;
  workflowType: WorkflowType | null;
  operationConfig: Json | null;
  steps: unknown[] | null;
  intent: string | null;
  maxCreditsPerExecution: number | null;
  plan: Json | null;
  stopCondition: Json;
  maxExecutions: number | null;
  notificationConfig: Json | null;
  sessionId: string | null;
  tags: string[];
  interval: string | null;
  intervalMinutes: number | null;
  cronExpression: string | null;
  scheduledFor: string | null;
  anchorMinute: number | null;
  timezone: string;
  status: WorkflowStatus;
  statusReason: string | null;
  executionCount: number;
  consecutiveFailures: number;
  /** The scheduler's claim slot (see SchedulesPort.claimDue). */
  nextRunAt: string | null;
  lastRunAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type ExecutionTrigger = 'manual' | 'schedule';
/** `running` from the moment an execution holds its reservation until it is recorded; readers see only the other two. */
export type ExecutionStatus = 'running' | 'completed' | 'failed';

/** One execution as stored; `body` is what the API returns (or, while running, who runs it). */
export interface ExecutionRecord {
  id: string;
  workflowId: string;
  userId: string;
  /** 1, 2, 3 ... per workflow, assigned by the store. */
  seq: number;
  trigger: ExecutionTrigger;
  /** The schedule slot a scheduled run was claimed for: one execution per slot, ever. */
  slot: string | null;
  status: ExecutionStatus;
  conditionMet: boolean;
  body: Json;
  startedAt: string;
  finishedAt: string;
}

export type NewExecution = Omit<ExecutionRecord, 'seq'>;

export interface WorkflowListFilter {
  userId: string;
  /** Workflows of others shared with the caller (their ids). */
  sharedIds: readonly string[];
  scope: 'owned' | 'shared' | 'all';
  /** One status; without it every status but archived. */
  status?: WorkflowStatus | undefined;
  /** Case-insensitive substring of name, description or intent. */
  search?: string | undefined;
  /** Every tag must be present (case-insensitive). */
  tags?: readonly string[] | undefined;
  sortBy: 'created' | 'updated' | 'name';
  sortOrder: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface PlanJobRecord {
  id: string;
  userId: string;
  status: 'running' | 'completed' | 'failed';
  request: Json;
  result: Json | null;
  error: Json | null;
  createdAt: string;
  completedAt: string | null;
}

/** Workflows, their executions and asynchronous plan requests. */
export interface WorkflowsPort {
  insert(w: WorkflowRecord): Promise<void>;
  get(id: string): Promise<WorkflowRecord | undefined>;
  list(filter: WorkflowListFilter): Promise<{ rows: WorkflowRecord[]; total: number }>;
  /** Writes the given fields of one workflow. */
  update(id: string, fields: Partial<Omit<WorkflowRecord, 'id'>>): Promise<void>;
  /** The workflow and all its executions. */
  delete(id: string): Promise<void>;

  /** Adds an execution as the workflow's next seq (assigned inside the store, unique per workflow); returns the seq. */
  appendExecution(e: NewExecution): Promise<number>;
  /**
   * Records an execution's outcome. With `onlyIfRunning` it is a compare-and-set: false (nothing
   * written) when another engine already recorded it.
   */
  recordExecution(id: string, outcome: Pick<ExecutionRecord, 'status' | 'conditionMet' | 'body' | 'finishedAt'>, onlyIfRunning: boolean): Promise<boolean>;
  /** Rewrites a recorded execution's body (e.g. the notifications it sent). */
  setExecutionBody(id: string, body: Json): Promise<void>;
  /** Executions still running, anywhere (recovery looks for those whose process died). */
  runningExecutions(): Promise<ExecutionRecord[]>;
  /** Running -> failed (compare-and-set): true for the one caller that changed it. */
  markInterrupted(id: string): Promise<boolean>;
  /** Completed and failed executions, newest first, and how many there are. */
  recordedExecutions(workflowId: string, page: { limit: number; offset: number }): Promise<{ rows: ExecutionRecord[]; total: number }>;
  /** The newest completed execution (what the next one is compared with). */
  lastCompleted(workflowId: string): Promise<Pick<ExecutionRecord, 'id' | 'body'> | undefined>;

  insertPlanJob(job: PlanJobRecord): Promise<void>;
  getPlanJob(id: string): Promise<PlanJobRecord | undefined>;
  finishPlanJob(id: string, outcome: Pick<PlanJobRecord, 'status' | 'result' | 'error' | 'completedAt'>): Promise<void>;
}

/** A slot taken: the workflow as read (its `nextRunAt` already the following slot) and the slot it runs for. */
export interface ClaimedSlot {
  workflow: WorkflowRecord;
  slot: string;
}

/**
 * The scheduler's claims on workflows' `nextRunAt`. A claim moves the slot forward with a
 * compare-and-set, so two engines on one database run each slot once.
 */
export interface SchedulesPort {
  /**
   * Claims up to `limit` active workflows whose slot is due by `dueBy`, earliest first, moving each
   * slot to `following(workflow, slot)`; `read` is how many were due (fewer than `limit`: none left).
   * A workflow another engine moved meanwhile is skipped.
   */
  claimDue(dueBy: string, limit: number, following: (w: WorkflowRecord, slot: string) => string | null): Promise<{ claimed: ClaimedSlot[]; read: number }>;
  /** Active workflows due by `now`. */
  dueCount(now: string): Promise<number>;
}
