import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../../atomic-write.js';
import { isoDay } from '../../clock.js';
import { snapshotOncePerTicker } from '../../market/snapshot-once.js';
import { ExitCode, UsageError, errorMessage } from '../../errors.js';
import { autohedgeHome } from '../../paths.js';
import { defaultAttempts, defaultBackoffMs } from '../../queue/defaults.js';
import type { AnalysisResult } from '../../result/types.js';
import { resolveRunClocks, type RunClock } from '../../run/as-of.js';
import { scopeCap } from '../../run/cap.js';
import { parseRunRequest, type RunRequest } from '../../run/request.js';
import { runAndSave } from '../../run/run-and-save.js';
import { homeSpendReservations, type SpendReservations } from '../../run/spend-reservations.js';
import { stringifyJsonSafely } from '../../sanitize.js';
import { resolveSearchChoice } from '../../search/choice.js';
import { listRuns, type RunSummary } from '../../store/index.js';
import { analyzeEach } from '../../universe/analyze-many.js';
import { lastCalls } from '../../watch/calls.js';
import { runCycle, type CycleDeps } from '../../watch/cycle.js';
import { cycleOutcome, hasChanges, type WatchReport } from '../../watch/delta.js';
import { deliver } from '../../watch/notify.js';
import { cycleFolder } from '../../watch/paths.js';
import { renderWatchHtml, renderWatchMarkdown, renderWatchText } from '../../watch/render.js';
import type { WatchCliOptions } from '../command-table.js';
import type { CliDeps } from '../deps.js';
import { warningWriter, type CliIo } from '../io.js';
import { redactingIo } from '../redact.js';
import { openSession } from '../request-session.js';
import { redisUrlFrom } from '../queue-options.js';
import { plannedRequests, requestFromFlags } from '../run-request-flags.js';
import { commandTickers } from '../tickers.js';
import type { Session } from '../services.js';
import { checkWatchDemo } from './watch-demo.js';

/**
 * `autohedge watch --universe f (--once | --every 1d)`: each cycle fetches market data for
 * every ticker, runs (or enqueues) an analysis only for the tickers whose triggers fired,
 * within the month's budget, and reports what changed (src/watch/). Analyses go through
 * runAndSave like `analyze`'s, each capped at --run-max-cost.
 */
export async function watchCommand(
  rawTickers: string[],
  options: WatchCliOptions,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
): Promise<number> {
  checkCombinations(options);
  // `watch --demo` with no tickers watches the demo's own (known once its cassette is open).
  const demoUniverse = options.demo === true && rawTickers.length === 0 && options.universe === undefined;
  const named = demoUniverse
    ? []
    : (await commandTickers(rawTickers, options.universe, io.cwd, watchNeedsTickers)).tickers;
  const search = resolveSearchChoice(options.search, io.env);
  const flags = { ...options, maxCost: options.runMaxCost };
  const now = deps.now?.() ?? new Date();
  const planned = named.length > 0 ? plannedRequests(named, flags, search, now) : null;
  // The session's clients are the same for every ticker: any request of the command opens it.
  const opening = planned?.[0] ?? parseRunRequest({ ...requestFromFlags(flags), ticker: 'ACME' });
  const session = await openSession(opening, io, deps, argv);
  const safeIo = redactingIo(io, session.secrets);
  try {
    const requests = planned ?? plannedRequests(session.coveredTickers(), flags, search, now);
    if (options.demo)
      session.checkDemoTickers(
        requests.map((request) => request.ticker),
        'watch',
      );
    // Deliveries run beside the next cycle (a slow webhook never delays it); all are awaited at the end.
    const deliveries: Array<Promise<boolean>> = [];
    let outcome: ReturnType<typeof cycleOutcome> = 'ok';
    for (;;) {
      const report = await cycle(requests, options, session, safeIo);
      if (session.demo) report.demo = true;
      outcome = cycleOutcome(report);
      deliveries.push(publish(report, options, session, safeIo));
      if (options.once || options.demo || io.signal?.aborted) break;
      if (!(await sleepUntilNext(options.every!, io.signal))) break;
    }
    const failed = (await Promise.all(deliveries)).some(Boolean);
    if (io.signal?.aborted) return ExitCode.interrupted;
    // The documented codes, for a cron job: 1 for a failed analysis or delivery, 3 for missing data (the last cycle's).
    if (failed || outcome === 'failed') return ExitCode.failed;
    return outcome === 'degraded' ? ExitCode.degraded : ExitCode.ok;
  } finally {
    await session.close();
  }
}

function checkCombinations(options: WatchCliOptions): void {
  if (options.once && options.every !== undefined) throw new UsageError('--once and --every cannot be combined');
  // The demo is one recorded session: one cycle, --once or not.
  if (options.demo) return checkWatchDemo(options);
  if (!options.once && options.every === undefined)
    throw new UsageError(
      'watch needs --once (one cycle, for cron or a systemd timer) or --every <interval> (30m, 4h, 1d)',
    );
  if (options.asOf !== undefined && !options.once)
    throw new UsageError('--as-of evaluates one past session: it goes with --once');
}

/** The latest of the tickers' clocks: the instant by which every one of their sessions had closed. */
function latestClock(clocks: readonly RunClock[]): RunClock {
  return clocks.reduce((latest, clock) => (clock.at > latest.at ? clock : latest));
}

const watchNeedsTickers = 'watch needs tickers: --universe <file> and/or ticker symbols';

/** One cycle: its own clock (now, or the --as-of session's close), the triggers, the runs. */
async function cycle(
  requests: readonly RunRequest[],
  options: WatchCliOptions,
  session: Session,
  io: CliIo,
): Promise<WatchReport> {
  const home = autohedgeHome(session.env);
  // One clock per ticker, on its own exchange; the cycle's own instant is the latest of them.
  const clocks = resolveRunClocks(requests, session.now(), () => session.asOf());
  const clockOf = new Map(requests.map((request, index) => [request.ticker, clocks[index]!]));
  const clock = latestClock(clocks);
  const byTicker = new Map(requests.map((request) => [request.ticker, request]));
  // One snapshot per ticker this cycle: the triggers read it, and the ticker's analysis reads it again.
  const cycleSession: Session = { ...session, market: snapshotOncePerTicker(session.market) };
  // The store is listed once a cycle: the last calls and the month's spend read the same list
  // (the cycle saves no run between the two); listed again, fresh, for the spend as the cycle ends.
  // A demo cycle sees only demo runs (which spent nothing).
  let listing: Promise<RunSummary[]> | null = null;
  const list = () => listRuns(home).then((runs) => (session.demo ? runs.filter((run) => run.demo) : runs));
  const savedRuns = (options?: { fresh?: boolean }) => (options?.fresh ? (listing = list()) : (listing ??= list()));
  const deps: CycleDeps = {
    snapshot: (ticker) => {
      const own = clockOf.get(ticker) ?? clock;
      return cycleSession.market.snapshot(ticker, {
        asOf: own.at,
        historical: own.historical,
        refresh: options.refresh,
        signal: io.signal,
      });
    },
    lastCalls: async (tickers) =>
      lastCalls(home, tickers, {
        asOfDay: clock.historical ? isoDay(clock.at) : null,
        demo: session.demo,
        runs: await savedRuns(),
      }),
    savedRuns,
    now: () => new Date(),
    // A demo cycle spends nothing and reserves nothing: it writes no spend-reservations.json.
    ...(session.demo
      ? {}
      : {
          reservations: rereadingUnderLock(homeSpendReservations(home), () => {
            // Under the lock the store is read again: a run another process saved a moment ago counts.
            listing = null;
          }),
        }),
    ...(options.enqueue
      ? {
          enqueue: (tickers) =>
            enqueue(
              tickers.map((ticker) => byTicker.get(ticker)!),
              options,
              session,
              io,
            ),
        }
      : {
          analyse: (tickers) =>
            analyseHere(
              tickers.map((ticker) => byTicker.get(ticker)!),
              options,
              cycleSession,
              io,
            ),
        }),
  };
  return runCycle(
    {
      tickers: requests.map((request) => request.ticker),
      asOf: clock.at,
      historical: clock.historical,
      limits: { maxAgeSessions: options.maxAge, gapSigma: options.gapSigma, moveAtr: options.moveAtr },
      budgetUsd: options.budgetUsd,
      worstCasePerRunUsd: options.runMaxCost,
    },
    deps,
  );
}

/** The admitted tickers through runAndSave, each under its own cap (its worst case). */
async function analyseHere(
  requests: readonly RunRequest[],
  options: WatchCliOptions,
  session: Session,
  io: CliIo,
): Promise<Map<string, AnalysisResult | Error>> {
  const outcomes = new Map<string, AnalysisResult | Error>();
  const byTicker = new Map(requests.map((request) => [request.ticker, request]));
  const note = (line: string) => (options.quiet ? undefined : io.stderr(`${line}\n`));
  await analyzeEach(byTicker.keys(), {
    concurrency: options.concurrency,
    signal: io.signal,
    run: async (ticker) => {
      const sinks = { warn: (line: string) => io.stderr(`autohedge: warning: ${line}\n`), info: note };
      const cap = scopeCap(options.runMaxCost, session);
      return (await runAndSave(byTicker.get(ticker)!, session, sinks, { cap, signal: io.signal })).result;
    },
    onOutcome: (outcome) => {
      outcomes.set(
        outcome.ticker,
        'result' in outcome && outcome.result
          ? outcome.result
          : new Error(String((outcome as { error?: unknown }).error)),
      );
    },
  });
  return outcomes;
}

async function enqueue(
  requests: readonly RunRequest[],
  options: WatchCliOptions,
  session: Session,
  io: CliIo,
): Promise<Map<string, string>> {
  const url = redisUrlFrom(options.redis, io.env);
  const { loadQueueModules } = await import('../../queue/redis.js');
  const { enqueueAnalyses } = await import('../../queue/enqueue.js');
  const queued = await enqueueAnalyses(await loadQueueModules(), {
    url,
    queueName: options.queue,
    requests,
    today: isoDay(session.now()),
    attempts: defaultAttempts,
    backoffMs: defaultBackoffMs,
  });
  await queued.close();
  return new Map(requests.map((request, index) => [request.ticker, queued.jobIds[index]!]));
}

/** Prints the cycle, saves its report, delivers it when it has changes. True when a delivery failed. */
async function publish(report: WatchReport, options: WatchCliOptions, session: Session, io: CliIo): Promise<boolean> {
  const text = renderWatchText(report);
  io.stdout(options.json ? `${stringifyJsonSafely(report)}\n` : text);
  const dir = await saveReport(report, session, io);
  if (dir && !options.quiet) io.stderr(`saved ${dir}\n`);
  if (!hasChanges(report) || (!options.notify && !options.notifyFile)) return false;
  const deliveries = await deliver(report, text, {
    ...(options.notify ? { url: options.notify } : {}),
    ...(options.notifyFile ? { file: resolve(io.cwd, options.notifyFile) } : {}),
    secrets: session.secrets,
  });
  for (const delivery of deliveries.filter((item) => !item.ok))
    io.stderr(
      `autohedge: warning: ${delivery.channel} ${delivery.detail} (after ${delivery.attempts} attempt(s)); the cycle is saved\n`,
    );
  return deliveries.some((item) => !item.ok);
}

async function saveReport(report: WatchReport, session: Session, io: CliIo): Promise<string | null> {
  const dir = join(autohedgeHome(session.env), ...cycleFolder(report.demo === true, report.cycle));
  try {
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(join(dir, 'delta.json'), `${stringifyJsonSafely(report, 2)}\n`);
    await writeFileAtomic(join(dir, 'delta.md'), renderWatchMarkdown(report));
    await writeFileAtomic(join(dir, 'delta.html'), renderWatchHtml(report));
    return dir;
  } catch (error) {
    warningWriter(io)(`the cycle's report could not be saved in ${dir}: ${errorMessage(error)}`);
    return null;
  }
}

/** Sleeps to the next cycle; false when interrupted first (SIGINT, SIGTERM). */
function sleepUntilNext(everyMs: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolveSleep) => {
    if (signal?.aborted) return resolveSleep(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolveSleep(true);
    }, everyMs);
    const onAbort = () => {
      clearTimeout(timer);
      resolveSleep(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Reservations whose admission first forgets the cycle's earlier read of the store. */
function rereadingUnderLock(reservations: SpendReservations, forget: () => void): SpendReservations {
  return {
    admit: (decide) =>
      reservations.admit(async (reservedUsd) => {
        forget();
        return decide(reservedUsd);
      }),
    release: (ids) => reservations.release(ids),
  };
}
