import { errorMessage } from '../../errors.js';
import type { AnalysisResult } from '../../result/types.js';
import type { JobSession } from '../../queue/worker.js';
import { autohedgeHome } from '../../paths.js';
import { sanitizeText } from '../../sanitize.js';
import { scrubDeep } from '../../scrub.js';
import { resolveSearchChoice } from '../../search/choice.js';
import type { CliDeps } from '../deps.js';
import { warningWriter, type CliIo } from '../io.js';
import type { WorkerCliOptions } from '../command-table.js';
import { redisUrlFrom } from '../queue-options.js';
import { redactingIo } from '../redact.js';
import { buildServices, secretsOf, type Session } from '../services.js';

type TranscriptFactory = typeof import('../../report/transcript.js').createTranscript;

/**
 * `autohedge worker`: takes analysis jobs from the queue until SIGTERM or Ctrl-C, each
 * one analyze() call whose result is saved here and returned as the job's value. On
 * the signal it takes no more jobs and lets those in flight finish (a second Ctrl-C
 * exits at once; the jobs it held go back to the queue when their lock expires).
 */
export async function workerCommand(
  options: WorkerCliOptions,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
): Promise<number> {
  const url = redisUrlFrom(options.redis, io.env);
  const { loadQueueModules, displayRedisUrl } = await import('../../queue/redis.js');
  const modules = await loadQueueModules();
  const search = resolveSearchChoice(options.search, io.env);
  const session = await buildServices(
    { env: io.env, cwd: io.cwd, baseUrl: options.baseUrl, argv, needsModel: true, search, warn: warningWriter(io) },
    deps,
  );
  const out = redactingIo(io, secretsOf(session.env));
  const log = (line: string) => {
    // Job lines quote server error text and job data: sanitised like any untrusted text.
    if (!options.quiet) out.stderr(`${sanitizeText(line)}\n`);
  };
  try {
    const { startWorker } = await import('../../queue/worker.js');
    const { createTranscript } = await import('../../report/transcript.js');
    const worker = await startWorker(modules, {
      url,
      queueName: options.queue,
      concurrency: options.concurrency,
      stallIntervalMs: options.stallInterval,
      rateLimitPauseMs: options.rateLimitPause,
      options: () => ({
        model: options.model,
        env: session.env,
        maxPositionPct: options.maxPosition,
        guardrailLimits: { maxRiskPct: options.maxRisk, minRewardRisk: options.minRewardRisk },
        maxCostUsd: options.maxCost ?? null,
      }),
      session: () => jobSession(session, options, out, createTranscript),
      log,
    });
    log(
      `autohedge worker: waiting for jobs on queue '${options.queue}' at ${displayRedisUrl(url)} (concurrency ${options.concurrency})`,
    );
    await untilStopped(io.signal);
    log('autohedge worker: stopping: no new jobs; letting the analyses in flight finish');
    await worker.close();
    log('autohedge worker: stopped');
    return 0;
  } finally {
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

function jobSession(
  session: Session,
  options: WorkerCliOptions,
  io: CliIo,
  createTranscript: TranscriptFactory,
): JobSession {
  const secrets = secretsOf(session.env);
  const transcript = createTranscript({ secrets });
  return {
    deps: {
      model: session.model,
      market: session.market,
      search: session.search,
      prices: session.prices,
      events: transcript.sink,
    },
    async finish(result: AnalysisResult) {
      const clean = scrubDeep(result, secrets);
      if (!options.save) return clean;
      const { saveRun } = await import('../../store/index.js');
      const { renderRunFiles } = await import('../../report/run-files.js');
      try {
        await saveRun(autohedgeHome(session.env), clean, { transcript: transcript.lines(), ...renderRunFiles(clean) });
      } catch (error) {
        io.stderr(`autohedge: warning: run ${result.runId} not saved: ${errorMessage(error)}\n`);
      }
      return clean;
    },
  };
}
