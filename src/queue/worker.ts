import { maxRateLimitWaitMs } from '../llm/pacer.js';
import { analyze, type AnalyzeDeps, type AnalyzeOptions } from '../pipeline/analyze.js';
import type { AnalysisResult } from '../result/types.js';
import { observeModelErrors, verdictOnError, verdictOnResult, type JobVerdict } from './classify.js';
import { jobLedger, type JobLedger } from './job-ledger.js';
import { jobDataSchema, type AnalysisJobData } from './jobs.js';
import { ensureReachable, type QueueModules, type RedisClient } from './redis.js';
import { closeWorker } from './shutdown.js';

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
  /** How long the whole queue pauses after an OpenAI 429 that names no retry-after. */
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
  // The worker's 'error' event reports a lost Redis; unheard, ioredis would dump each reconnection's stack.
  connection.on('error', () => undefined);
  const queue = new bullmq.Queue(settings.queueName, { connection });
  // The job ledger's reads and writes get their own client, so they never queue behind BullMQ's.
  const ledgerConnection = connection.duplicate();
  ledgerConnection.on('error', () => undefined);
  queue.on('error', () => undefined);

  const processor = async (job: import('bullmq').Job): Promise<AnalysisResult> => {
    const parsed = jobDataSchema.safeParse(job.data);
    if (!parsed.success)
      throw new bullmq.UnrecoverableError(
        `malformed job data: ${parsed.error.issues[0]?.message ?? 'invalid'} (${JSON.stringify(job.data).slice(0, 200)})`,
      );
    const data = parsed.data;
    const attempt = `attempt ${job.attemptsMade + 1} of ${job.opts.attempts ?? 1}`;
    settings.log(`[${data.ticker}] job ${job.id} started (${attempt})`);
    const ledger = jobLedger(ledgerConnection, settings.queueName, String(job.id));
    const verdict = await runJob(data, settings, ledger);
    switch (verdict.kind) {
      case 'done':
        await ledger.forget();
        settings.log(`[${data.ticker}] job ${job.id} done: ${verdict.result.status}${reusedNote(ledger)}`);
        return verdict.result;
      case 'rate-limited': {
        const pauseMs = rateLimitPause(verdict.retryAfterMs, settings.rateLimitPauseMs);
        settings.log(
          `[${data.ticker}] job ${job.id}: ${verdict.reason}; queue paused ${pauseMs} ms, ${attempt} spent (the answers already paid for are kept for the retry)`,
        );
        // The queue's rate limiter (what Worker.rateLimit sets too): every worker on it waits.
        await queue.rateLimit(pauseMs);
        // A plain failure, so the pause spends one of the job's attempts: a 429 that never clears ends.
        throw new Error(verdict.reason);
      }
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
      await closeWorker({ worker, queue, connection, log: settings.log });
      ledgerConnection.disconnect();
    },
  };
}

/** The server's retry-after when it sent one (capped), else the configured pause. */
export function rateLimitPause(retryAfterMs: number | undefined, configuredMs: number): number {
  return retryAfterMs === undefined
    ? configuredMs
    : Math.min(maxRateLimitWaitMs, Math.max(1, Math.round(retryAfterMs)));
}

function reusedNote(ledger: JobLedger): string {
  return ledger.reused > 0 ? ` (${ledger.reused} model answers reused from earlier attempts)` : '';
}

async function runJob(data: AnalysisJobData, settings: WorkerSettings, ledger: JobLedger): Promise<JobVerdict> {
  const session = settings.session(data);
  const options = { ...settings.options(data), asOf: new Date(data.asOf) };
  // --max-cost covers the job across its attempts: an attempt may spend only what the earlier ones left.
  const cap = options.maxCostUsd ?? null;
  const spent = await ledger.spentUsd();
  if (cap !== null && spent >= cap)
    return {
      kind: 'unrecoverable',
      reason: `the job's --max-cost of $${cap} was spent by its earlier attempts ($${spent.toFixed(4)})`,
    };
  const observed = observeModelErrors(ledger.remembering(session.deps.model));
  let result: AnalysisResult;
  try {
    result = await analyze(
      data.ticker,
      { ...options, ...(cap !== null ? { maxCostUsd: cap - spent } : {}) },
      { ...session.deps, model: observed.model },
    );
  } catch (error) {
    return verdictOnError(error);
  }
  await ledger.addSpent(result.usage.costUsd ?? 0);
  const verdict = verdictOnResult(result, observed.errors);
  // Only a result that is this job's value is kept; a rate-limited run will be redone.
  return verdict.kind === 'done' ? { kind: 'done', result: await session.finish(result) } : verdict;
}

export type { RedisClient };
