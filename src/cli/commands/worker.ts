import { queueNameFrom, redisUrlFrom } from '../queue-options.js';
import { checkReplayFlags } from './demo-options.js';
import { sanitizeText } from '../../sanitize.js';
import { resolveSearchChoice } from '../../search/choice.js';
import type { CliDeps } from '../deps.js';
import type { CliIo } from '../io.js';
import type { WorkerCliOptions } from '../command-table.js';
import { redactingIo } from '../redact.js';
import { openSession } from '../request-session.js';
import { requestFromFlags } from '../run-request-flags.js';
import { ceilingsOf } from '../options.js';
import { checkedFlagBaseUrl, secretsOf, type Session } from '../services.js';
import { parseRunRequest } from '../../run/request.js';

/**
 * `autohedge worker`: takes analysis jobs from the queue until SIGTERM or Ctrl-C. Each
 * job's data is a RunRequest, run by runAndSave on this worker's clients (its server,
 * search, MCP tools), saved here and returned as the job's value. On the signal it takes
 * no more jobs and lets those in flight finish (a second Ctrl-C exits at once; the jobs
 * it held go back to the queue when their lock expires). `--demo`: the jobs of `enqueue
 * --demo`, replayed from the demo cassette with no key, saved as demo runs.
 */
export async function workerCommand(
  options: WorkerCliOptions,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
): Promise<number> {
  const url = redisUrlFrom(options.redis, io.env);
  checkedFlagBaseUrl(options.baseUrl);
  // A demo worker's flags fill what its jobs leave out: only what the demo cassette holds.
  checkReplayFlags(options);
  const queueName = queueNameFrom(options.queue, options.demo);
  const { loadQueueModules, displayRedisUrl } = await import('../../queue/redis.js');
  const modules = await loadQueueModules();
  const host = requestFromFlags(options, resolveSearchChoice(options.search, io.env));
  // Every worker on this Redis paces against one quota: the buckets live there.
  const { sharedPacers } = await import('../../queue/shared-budget.js');
  const shared = await sharedPacers(modules, url, ceilingsOf(options));
  let session: Session;
  try {
    // Checked once here, as analyze checks its flags: a bad worker flag is exit 2 before any job.
    session = await openSession(parseRunRequest({ ...host, ticker: 'ACME' }), io, deps, argv, {
      pacers: shared.pacers,
    });
  } catch (error) {
    shared.close();
    throw error;
  }
  const out = redactingIo(io, secretsOf(session.env));
  const log = (line: string) => {
    // Job lines quote server error text and job data: sanitised like any untrusted text.
    if (!options.quiet) out.stderr(`${sanitizeText(line)}\n`);
  };
  try {
    const { startWorker } = await import('../../queue/worker.js');
    const worker = await startWorker(modules, {
      url,
      queueName,
      concurrency: options.concurrency,
      stallIntervalMs: options.stallInterval,
      rateLimitPauseMs: options.rateLimitPause,
      host,
      session,
      sinks: (request) => ({ warn: (message) => log(`[${request.ticker}] warning: ${message}`) }),
      log,
    });
    log(
      `autohedge worker: waiting for ${options.demo ? 'demo ' : ''}jobs on queue '${queueName}' at ${displayRedisUrl(url)} (concurrency ${options.concurrency})`,
    );
    await untilStopped(io.signal);
    log('autohedge worker: stopping: no new jobs; letting the analyses in flight finish');
    await worker.close();
    const { describePacing, pacingSummary } = await import('../../llm/pacer.js');
    const pacing = await pacingSummary(shared.pacers);
    if (pacing) log(`autohedge worker: ${describePacing(pacing)}`);
    log('autohedge worker: stopped');
    return 0;
  } finally {
    shared.close();
    await session.close();
  }
}

/** Resolves on Ctrl-C (the CLI's signal) or SIGTERM, which a process manager sends to stop a worker. */
function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}
