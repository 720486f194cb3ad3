// What the engine's entry point exports from the workflows capability.
export * from './responses.js';
export { IntentAssessment } from './assess.js';
export { WorkflowPlan, PlanningProfile } from './planner.js';
export type { WorkflowsService } from './service.js';
export type { WorkflowScheduler, SchedulerRun } from './scheduler.js';
export type { WorkflowOperations } from './step-operations.js';
