import { analyze, type AnalyzeDeps, type AnalyzeOptions } from '../pipeline/analyze.js';
import type { AnalysisResult } from '../result/types.js';
import { observeModelErrors, verdictOnError, verdictOnResult, type JobVerdict } from './classify.js';
import { jobDataSchema, type AnalysisJobData } from './jobs.js';
import { ensureReachable, type QueueModules } from './redis.js';

/** One job's clients, and what becomes of its result: saved in this host's run store, scrubbed, returned as the job's value. */
export interface JobSession {
  deps: AnalyzeDeps;
  finish(result: AnalysisResult): Promise<AnalysisResult>;
}

export interface WorkerSettings {
  url: string;
  queueName: string;
  /** Analyses this worker runs at once. */
  concurrency: number;
  /**
   * How soon a job held by a dead worker (SIGKILL, a lost host) goes back to the queue:
   * both the job lock's duration (renewed every half of it while the worker lives) and
   * the interval at which workers look for jobs whose lock expired.
   */
  stallIntervalMs: number;
  /** How long the whole queue pauses after an OpenAI 429. */
  rateLimitPauseMs: number;
  options: (job: AnalysisJobData) => AnalyzeOptions;
  session: (job: AnalysisJobData) => JobSession;
  log: (line: string) => void;
}

export interface RunningWorker {
  /** Takes no further job, lets the analyses in flight finish, and disconnects. */
  close(): Promise<void>;
}

/** A BullMQ worker whose every job is one analyze() call. */
export async function startWorker(modules: QueueModules, settings: WorkerSettings): Promise<RunningWorker> {
  const { bullmq } = modules;
  const connection = modules.connect(settings.url);
  await ensureReachable(connection, settings.url);
  const queue = new bullmq.Queue(settings.queueName, { connection });

  const processor = async (job: import('bullmq').Job): Promise<AnalysisResult> => {
    const parsed = jobDataSchema.safeParse(job.data);
    if (!parsed.success)
      throw new bullmq.UnrecoverableError(
        `malformed job data: ${parsed.error.issues[0]?.message ?? 'invalid'} (${JSON.stringify(job.data).slice(0, 200)})`,
      );
    const data = parsed.data;
    settings.log(
      `[${data.ticker}] job ${job.id} started (attempt ${job.attemptsMade + 1} of ${job.opts.attempts ?? 1})`,
    );
    const verdict = await runJob(data, settings);
    switch (verdict.kind) {
      case 'done':
        settings.log(`[${data.ticker}] job ${job.id} done: ${verdict.result.status}`);
        return verdict.result;
      case 'rate-limited':
        settings.log(
          `[${data.ticker}] job ${job.id}: ${verdict.reason}; queue paused ${settings.rateLimitPauseMs} ms, the job waits without spending an attempt`,
        );
        await queue.rateLimit(settings.rateLimitPauseMs);
        throw bullmq.Worker.RateLimitError();
      case 'unrecoverable':
        settings.log(`[${data.ticker}] job ${job.id} failed, not retried: ${verdict.reason}`);
        throw new bullmq.UnrecoverableError(verdict.reason);
      case 'transient':
        settings.log(`[${data.ticker}] job ${job.id} attempt ${job.attemptsMade + 1} failed: ${verdict.reason}`);
        throw new Error(verdict.reason);
    }
  };

  const worker = new bullmq.Worker(settings.queueName, processor, {
    connection,
    concurrency: settings.concurrency,
    lockDuration: settings.stallIntervalMs,
    stalledInterval: settings.stallIntervalMs,
    // A job may be orphaned by a dead worker twice before it counts as failed.
    maxStalledCount: 2,
    // Long-poll briefly, so a closing worker is not held by an idle blocking call.
    drainDelay: 1,
  });
  worker.on('error', (error) => settings.log(`worker error: ${error.message}`));
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      await queue.close();
      connection.disconnect();
    },
  };
}

async function runJob(data: AnalysisJobData, settings: WorkerSettings): Promise<JobVerdict> {
  const session = settings.session(data);
  const observed = observeModelErrors(session.deps.model);
  let result: AnalysisResult;
  try {
    result = await analyze(
      data.ticker,
      { ...settings.options(data), asOf: new Date(data.asOf) },
      { ...session.deps, model: observed.model },
    );
  } catch (error) {
    return verdictOnError(error);
  }
  const verdict = verdictOnResult(result, observed.errors);
  // Only a result that is this job's value is kept; a rate-limited run will be redone.
  return verdict.kind === 'done' ? { kind: 'done', result: await session.finish(result) } : verdict;
}
