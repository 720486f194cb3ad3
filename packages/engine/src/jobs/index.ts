export { StoreJobQueue } from './store-queue.js';
export { RescheduleJob, type Job, type JobContext, type JobHandler, type JobQueue, type JobStatus, type HandlerOptions, type EnqueueOptions, type RunOptions } from './queue.js';
