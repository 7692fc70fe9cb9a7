import { errorMessage, UsageError } from '../errors.js';
import { maxRateLimitWaitMs } from '../llm/pacer.js';
import { scopeCap } from '../run/cap.js';
import { RunRequestError, type RequestDeclaration, type RunRequest } from '../run/request.js';
import { runAndSave, type RunSession, type RunSinks } from '../run/run-and-save.js';
import type { AnalysisResult } from '../result/types.js';
import { verdictOnError, verdictOnResult, type JobVerdict } from './classify.js';
import { requestOnHost, type HostRequest } from './job-request.js';
import { jobLedger, type JobLedger } from './job-ledger.js';
import { ensureReachable, type QueueModules } from './redis.js';
import { closeWorker } from './shutdown.js';

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
  /** How long the whole queue pauses after a 429 that names no retry-after. */
  rateLimitPauseMs: number;
  /** The worker's own flags as a request without a ticker: what a job leaves unset, and what a job may not change. */
  host: HostRequest;
  /** The request jobs are read with (default: the built-in one; a test may extend it). */
  request?: RequestDeclaration;
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
  // The worker's 'error' event reports a lost Redis; unheard, ioredis would dump each reconnection's stack.
  connection.on('error', () => undefined);
  const queue = new bullmq.Queue(settings.queueName, { connection });
  queue.on('error', () => undefined);
  // The job ledger's reads and writes get their own client, so they never queue behind BullMQ's.
  const ledgerConnection = connection.duplicate();
  ledgerConnection.on('error', () => undefined);
  // Aborted when the worker must close at once (Redis gone): the runs in flight end interrupted and are saved.
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();

  const processor = async (job: import('bullmq').Job): Promise<AnalysisResult> => {
    const request = jobRequest(job, settings, bullmq.UnrecoverableError);
    const line = (text: string) => settings.log(`[${request.ticker}] job ${job.id}${text}`);
    const attempt = `attempt ${job.attemptsMade + 1} of ${job.opts.attempts ?? 1}`;
    line(` started (${attempt})`);
    const ledger = jobLedger(ledgerConnection, settings.queueName, String(job.id));
    const running = runJob(request, settings, ledger, stopping.signal);
    inFlight.add(running);
    const verdict = await running.finally(() => inFlight.delete(running));
    switch (verdict.kind) {
      case 'done':
        await ledger.forget();
        line(` done: ${verdict.result.status}${reusedNote(ledger)}`);
        return verdict.result;
      case 'rate-limited': {
        const pauseMs = rateLimitPause(verdict.retryAfterMs, settings.rateLimitPauseMs);
        line(
          `: ${verdict.reason}; queue paused ${pauseMs} ms, ${attempt} spent (the answers already paid for are kept for the retry)`,
        );
        // The queue's rate limiter (what Worker.rateLimit sets too): every worker on it waits.
        await queue.rateLimit(pauseMs);
        // A plain failure, so the pause spends one of the job's attempts: a 429 that never clears ends.
        throw new Error(verdict.reason);
      }
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
      const interruptInFlight = async () => {
        if (inFlight.size === 0) return;
        settings.log(
          `autohedge worker: interrupting ${inFlight.size} analysis(es) in flight; each is saved as interrupted`,
        );
        stopping.abort();
        await Promise.race([Promise.allSettled([...inFlight]), delay(savingGraceMs)]);
      };
      await closeWorker({ worker, queue, connection, log: settings.log, interruptInFlight });
      ledgerConnection.disconnect();
    },
  };
}

/** How long a worker closing at once waits for its interrupted runs to be saved. */
const savingGraceMs = 15_000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
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

/** The job's data as this worker's RunRequest; anything it cannot run (an unknown version, bad data) fails the job once, unretried. */
function jobRequest(
  job: import('bullmq').Job,
  settings: WorkerSettings,
  Unrecoverable: typeof import('bullmq').UnrecoverableError,
): RunRequest {
  try {
    return requestOnHost(job.data, settings.host, settings.request);
  } catch (error) {
    // Data that is not a request is malformed; a request this worker will not run (a version
    // it does not know, another server, a demo job here or a real one on a demo worker) is refused.
    const malformed = error instanceof RunRequestError && !error.unknownVersion;
    const what = malformed || !(error instanceof UsageError) ? 'malformed job data' : 'job refused';
    const reason = `${what}: ${errorMessage(error)}`;
    settings.log(`job ${job.id} failed, not retried: ${reason}`);
    throw new Unrecoverable(reason);
  }
}

/**
 * One attempt: runAndSave under what is left of the job's cap after its earlier attempts,
 * its model answering what they already paid for from the ledger; only a result that is
 * the job's value is kept (saved, handed to afterSave).
 */
async function runJob(
  request: RunRequest,
  settings: WorkerSettings,
  ledger: JobLedger,
  stopping: AbortSignal,
): Promise<JobVerdict> {
  try {
    const spent = await ledger.spentUsd();
    const capUsd = request.maxCostUsd ?? null;
    if (capUsd !== null && spent >= capUsd)
      return {
        kind: 'unrecoverable',
        reason: `the job's --max-cost of $${capUsd} was spent by its earlier attempts ($${spent.toFixed(4)})`,
      };
    const cap = scopeCap(capUsd === null ? null : capUsd - spent, settings.session);
    const session = { ...settings.session, model: ledger.remembering(settings.session.model) };
    // A run the closing worker interrupted is kept (saved as interrupted), as the CLI keeps one Ctrl-C stops.
    const keep = (result: AnalysisResult) =>
      verdictOnResult(result).kind === 'done' || (stopping.aborted && result.status === 'interrupted');
    const { result } = await runAndSave(request, session, settings.sinks(request), { cap, keep, signal: stopping });
    await ledger.addSpent(result.usage.costUsd ?? 0);
    return verdictOnResult(result);
  } catch (error) {
    return verdictOnError(error);
  }
}
