import { scopeCap } from '../run/cap.js';
import { RunRequestError, type RunRequest } from '../run/request.js';
import { runAndSave, type RunSession, type RunSinks } from '../run/run-and-save.js';
import type { AnalysisResult } from '../result/types.js';
import { verdictOnError, verdictOnResult, type JobVerdict } from './classify.js';
import { requestOnHost, type HostRequest } from './job-request.js';
import { ensureReachable, type QueueModules } from './redis.js';

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
  /** The worker's own flags as a request without a ticker: what a job leaves unset, and what a job may not change. */
  host: HostRequest;
  /** The worker's clients, shared by its jobs (each job has its own cap). */
  session: RunSession;
  /** Where a job's run reports (warnings); the result is the job's value. */
  sinks: (request: RunRequest) => RunSinks;
  log: (line: string) => void;
}

export interface RunningWorker {
  /** Takes no further job, lets the analyses in flight finish, and disconnects. */
  close(): Promise<void>;
}

/** A BullMQ worker whose every job is a RunRequest, run by runAndSave. */
export async function startWorker(modules: QueueModules, settings: WorkerSettings): Promise<RunningWorker> {
  const { bullmq } = modules;
  const connection = modules.connect(settings.url);
  await ensureReachable(connection, settings.url);
  const queue = new bullmq.Queue(settings.queueName, { connection });

  const processor = async (job: import('bullmq').Job): Promise<AnalysisResult> => {
    const request = jobRequest(job, settings, bullmq.UnrecoverableError);
    const line = (text: string) => settings.log(`[${request.ticker}] job ${job.id}${text}`);
    line(` started (attempt ${job.attemptsMade + 1} of ${job.opts.attempts ?? 1})`);
    const verdict = await runJob(request, settings);
    switch (verdict.kind) {
      case 'done':
        line(` done: ${verdict.result.status}`);
        return verdict.result;
      case 'rate-limited':
        line(
          `: ${verdict.reason}; queue paused ${settings.rateLimitPauseMs} ms, the job waits without spending an attempt`,
        );
        await queue.rateLimit(settings.rateLimitPauseMs);
        throw bullmq.Worker.RateLimitError();
      case 'unrecoverable':
        line(` failed, not retried: ${verdict.reason}`);
        throw new bullmq.UnrecoverableError(verdict.reason);
      case 'transient':
        line(` attempt ${job.attemptsMade + 1} failed: ${verdict.reason}`);
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

/** The job's data as this worker's RunRequest; anything it cannot run (an unknown version, bad data) fails the job once, unretried. */
function jobRequest(
  job: import('bullmq').Job,
  settings: WorkerSettings,
  Unrecoverable: typeof import('bullmq').UnrecoverableError,
): RunRequest {
  try {
    return requestOnHost(job.data, settings.host);
  } catch (error) {
    const what = error instanceof RunRequestError && error.unknownVersion ? 'job refused' : 'malformed job data';
    const reason = `${what}: ${error instanceof Error ? error.message : String(error)}`;
    settings.log(`job ${job.id} failed, not retried: ${reason}`);
    throw new Unrecoverable(reason);
  }
}

/** One attempt: runAndSave under the job's own cap; only a result that is the job's value is kept (saved, handed to afterSave). */
async function runJob(request: RunRequest, settings: WorkerSettings): Promise<JobVerdict> {
  try {
    const cap = scopeCap(request.maxCostUsd, settings.session);
    const keep = (result: AnalysisResult) => verdictOnResult(result).kind === 'done';
    const { result } = await runAndSave(request, settings.session, settings.sinks(request), { cap, keep });
    return verdictOnResult(result);
  } catch (error) {
    return verdictOnError(error);
  }
}
