import { isoDay } from '../../clock.js';
import { resolveRunClocks } from '../../run/as-of.js';
import { parseRunRequest } from '../../run/request.js';
import { requestFromFlags } from '../run-request-flags.js';
import { commandTickers, requiredTickers } from '../tickers.js';
import { ExitCode, UsageError } from '../../errors.js';
import { UniverseTally } from '../../universe/universe-summary.js';
import type { Enqueued, JobOutcome } from '../../queue/enqueue.js';
import type { CliDeps } from '../deps.js';
import { exitCodeForStatus, worstExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import type { EnqueueCliOptions } from '../command-table.js';
import { queueNameFrom, redisUrlFrom } from '../queue-options.js';
import { checkReplayFlags } from './demo-options.js';
import { checkBlindAndSamples } from './blind-options.js';
import type { RunRequest } from '../../run/request.js';
import { createResultPrinter } from './result-printer.js';
import { stringifyJsonSafely } from '../../sanitize.js';

/**
 * `autohedge enqueue <tickers...|--universe f>`: one job per (ticker, as-of day) on the
 * queue that `autohedge worker` processes. Prints the job ids and returns, or with
 * --wait prints each result as its job completes, then a summary. `--demo` jobs replay the
 * demo cassette on `autohedge worker --demo` (no key), on a queue of their own.
 */
export async function enqueueCommand(
  rawTickers: string[],
  options: EnqueueCliOptions,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
): Promise<number> {
  if (options.json && options.jsonl) throw new UsageError('--json and --jsonl cannot be combined');
  if (options.jsonl && !options.wait) throw new UsageError('--jsonl prints results as jobs complete: it needs --wait');
  checkReplayFlags(options);
  checkBlindAndSamples({ ...options, search: undefined, mcpConfig: undefined });
  const { tickers } = await commandTickers(rawTickers, options.universe, io.cwd, requiredTickers(options.universe));
  const now = (deps.now ?? (() => new Date()))();
  // One request per ticker, exactly as analyze builds it: a job's data is the request.
  const base = requestFromFlags(options);
  const requests = tickers.map((ticker) => parseRunRequest({ ...base, ticker }));
  // The same meaning as analyze --as-of, refused here as there: a closed or future day of any ticker's exchange.
  resolveRunClocks(requests, now, () => now);
  const today = options.demo ? await demoDay(requests, io, deps, argv) : isoDay(now);
  const url = redisUrlFrom(options.redis, io.env);
  const queueName = queueNameFrom(options.queue, options.demo);
  const { loadQueueModules, displayRedisUrl } = await import('../../queue/redis.js');
  const { enqueueAnalyses } = await import('../../queue/enqueue.js');
  const queued = await enqueueAnalyses(await loadQueueModules(), {
    url,
    queueName,
    requests,
    today,
    attempts: options.attempts,
    backoffMs: options.backoff,
  });
  try {
    if (!options.quiet) {
      const added = tickers.length - queued.existing;
      const again = queued.existing > 0 ? `, ${queued.existing} already queued or done` : '';
      io.stderr(`autohedge: ${added} added${again} on queue '${queueName}' at ${displayRedisUrl(url)}\n`);
      if (options.demo) io.stderr('autohedge: demo jobs: `autohedge worker --demo` runs them, with no key\n');
    }
    if (!options.wait) {
      io.stdout(
        options.json
          ? `${stringifyJsonSafely(
              queued.jobIds.map((jobId, index) => ({ ticker: tickers[index], jobId })),
              2,
            )}\n`
          : `${queued.jobIds.join('\n')}\n`,
      );
      return ExitCode.ok;
    }
    return await waitAndPrint(queued, tickers, options, io);
  } finally {
    await queued.close();
  }
}

/**
 * The day a demo job runs as of (its job id's day): the demo cassette's recorded day, read
 * by the session the demo worker opens too; a ticker the demo does not hold is refused here.
 */
async function demoDay(requests: readonly RunRequest[], io: CliIo, deps: CliDeps, argv: string[]): Promise<string> {
  // Loaded only here: the clients' modules would slow every enqueue for the demo's sake.
  const { openSession } = await import('../request-session.js');
  const session = await openSession(requests[0]!, io, deps, argv);
  try {
    session.checkDemoTickers(
      requests.map((request) => request.ticker),
      'enqueue',
    );
    return isoDay(session.asOf());
  } finally {
    await session.close();
  }
}

async function waitAndPrint(
  queued: Enqueued,
  tickers: string[],
  options: EnqueueCliOptions,
  io: CliIo,
): Promise<number> {
  // The runs are saved on the workers' hosts, not here.
  const printer = await createResultPrinter({ ...options, save: false }, io, tickers);
  const tally = new UniverseTally();
  const codes = new Set<ExitCode>();
  const interrupted = new Promise<'interrupted'>((resolve) => {
    if (io.signal?.aborted) resolve('interrupted');
    io.signal?.addEventListener('abort', () => resolve('interrupted'), { once: true });
  });
  let stopped = false;
  const done = queued.wait((outcome: JobOutcome) => {
    // Once the waiting stops, closing the queue ends the pending waits: not job failures.
    if (stopped) return;
    if (outcome.result) {
      codes.add(exitCodeForStatus(outcome.result.status));
      tally.addResult(outcome.result);
      printer.print(outcome.result);
    } else {
      codes.add(/^(UsageError|ConfigError|DataError): /.test(outcome.failure) ? ExitCode.usage : ExitCode.failed);
      tally.addError();
      io.stderr(`autohedge: job ${outcome.jobId} failed: ${outcome.failure}\n`);
    }
  });
  // Ctrl-C stops the waiting, not the jobs: the workers carry on with them.
  if ((await Promise.race([done, interrupted])) === 'interrupted') {
    stopped = true;
    // The pending waits end as the queue closes; nothing is left to report from them.
    done.catch(() => {});
    io.stderr('autohedge: stopped waiting; the jobs stay queued and the workers carry on\n');
    return ExitCode.interrupted;
  }
  printer.flushJson();
  if (tickers.length > 1) await printer.summary(tally);
  return worstExitCode([...codes]);
}
