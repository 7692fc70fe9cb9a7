import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { AnalysisResult } from '../result/types.js';
import { sanitizeDeep, sanitizeText } from '../sanitize.js';
import { savedResultSchema } from '../result/result-schema.js';
import { formatZodIssues } from '../zod-issues.js';
import type { RunRequest } from '../run/request.js';
import { jobIdFor, keepFinishedSeconds, type AnalysisJobData } from './jobs.js';
import { jobFinished } from './job-finished.js';
import { ensureReachable, type QueueModules } from './redis.js';

export interface EnqueueSettings {
  url: string;
  queueName: string;
  /** One request per job. */
  requests: readonly RunRequest[];
  /** The as-of day of a live request (today), for its job id. */
  today: string;
  /** Attempts in all for transient failures, and the first back-off (doubling after each). */
  attempts: number;
  backoffMs: number;
}

/** How long closing waits for the pending waits to wind down. */
const closeGraceMs = 2_000;

export type JobOutcome =
  | { jobId: string; ticker: string; result: AnalysisResult; failure?: undefined }
  | { jobId: string; ticker: string; result?: undefined; failure: string };

export interface Enqueued {
  /** One per ticker, in order; a pair enqueued before keeps its job (and its id). */
  jobIds: string[];
  /** How many of them were already in the queue (waiting, running or finished). */
  existing: number;
  /** Resolves once every job has finished, calling `onOutcome` as each does. */
  wait(onOutcome: (outcome: JobOutcome) => void | Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/**
 * One job per (ticker, as-of day), its id derived from both, so enqueuing the same
 * pair again adds nothing. Transient failures are retried with exponential back-off.
 */
export async function enqueueAnalyses(modules: QueueModules, settings: EnqueueSettings): Promise<Enqueued> {
  const { bullmq } = modules;
  const connection = modules.connect(settings.url);
  await ensureReachable(connection, settings.url);
  // A connection lost mid-wait reaches the waits as rejections; the events would only print.
  connection.on('error', () => undefined);
  const queue = new bullmq.Queue<AnalysisJobData, AnalysisResult>(settings.queueName, { connection });
  queue.on('error', () => undefined);
  const jobs = settings.requests.map((request) => ({
    ticker: request.ticker,
    request,
    jobId: jobIdFor(request.ticker, request.asOf.kind === 'historical' ? request.asOf.day : settings.today),
  }));
  let existing = 0;
  try {
    for (const { jobId } of jobs) if (await keepExisting(queue, jobId)) existing += 1;
    await queue.addBulk(
      jobs.map(({ request, jobId }) => ({
        name: 'analyze',
        data: request,
        opts: {
          jobId,
          attempts: settings.attempts,
          backoff: { type: 'exponential', delay: settings.backoffMs },
          removeOnComplete: { age: keepFinishedSeconds },
          removeOnFail: { age: keepFinishedSeconds },
        },
      })),
    );
  } catch (error) {
    await queue.close();
    connection.disconnect();
    throw error;
  }
  const stop = new AbortController();
  let waiting: Promise<void> | undefined;
  return {
    jobIds: jobs.map((job) => job.jobId),
    existing,
    wait: (onOutcome) => (waiting = waitForJobs(modules, settings, { queue, stop: stop.signal }, jobs, onOutcome)),
    async close() {
      // The pending waits end, and their events connection closes, before the queue's does;
      // a Redis gone away never answers their last calls, so they get a moment, not forever.
      stop.abort();
      await Promise.race([waiting?.catch(() => undefined), delay(closeGraceMs, undefined, { ref: false })]);
      await queue.close();
      connection.disconnect();
    },
  };
}

async function waitForJobs(
  modules: QueueModules,
  settings: EnqueueSettings,
  { queue, stop }: { queue: import('bullmq').Queue<AnalysisJobData, AnalysisResult>; stop: AbortSignal },
  jobs: Array<{ ticker: string; jobId: string }>,
  onOutcome: (outcome: JobOutcome) => void | Promise<void>,
): Promise<void> {
  const eventsConnection = modules.connect(settings.url);
  eventsConnection.on('error', () => undefined);
  const events = new modules.bullmq.QueueEvents(settings.queueName, { connection: eventsConnection });
  events.on('error', () => undefined);
  // Each job waited for listens for its completion and failure, and for the waiting to stop.
  events.setMaxListeners(jobs.length * 2 + 10);
  setMaxListeners(jobs.length + 10, stop);
  try {
    await events.waitUntilReady();
    await Promise.all(
      jobs.map(async ({ ticker, jobId }) => {
        const job = await queue.getJob(jobId);
        let outcome: JobOutcome;
        if (!job)
          outcome = { jobId, ticker, failure: 'the job is no longer in the queue (removed, or expired after a week)' };
        else {
          try {
            outcome = jobValue(jobId, ticker, await jobFinished({ queue, events }, jobId, stop));
          } catch (error) {
            outcome = { jobId, ticker, failure: sanitizeText(error instanceof Error ? error.message : String(error)) };
          }
        }
        await onOutcome(outcome);
      }),
    );
  } finally {
    await events.close();
    eventsConnection.disconnect();
  }
}

/**
 * A job's value comes out of Redis, where anyone with access may have written: it is
 * checked to be an AnalysisResult (the saved-run schema) and sanitised before printing.
 */
function jobValue(jobId: string, ticker: string, value: unknown): JobOutcome {
  const parsed = savedResultSchema.safeParse(value);
  if (!parsed.success)
    return {
      jobId,
      ticker,
      failure: `the job's value is not an AnalysisResult (${formatZodIssues(parsed.error, { limit: 1, root: 'value' })})`,
    };
  return { jobId, ticker, result: sanitizeDeep(value as AnalysisResult) };
}

/**
 * Whether a job already on the queue stands for this (ticker, day): one waiting, running or
 * completed does; one that failed (its attempts spent — the market vendor was down, the server refused)
 * is removed, so enqueuing it again after the outage runs it again the same day.
 */
async function keepExisting(
  queue: { getJob(id: string): Promise<{ getState(): Promise<string>; remove(): Promise<void> } | undefined> },
  jobId: string,
): Promise<boolean> {
  const job = await queue.getJob(jobId);
  if (!job) return false;
  if ((await job.getState()) !== 'failed') return true;
  await job.remove();
  return false;
}
