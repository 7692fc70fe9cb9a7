import { CassetteError, ExitCode } from '../../errors.js';
import { renderProbe } from '../../probe/compare.js';
import { runProbe } from '../../probe/run-probe.js';
import type { AnalysisResult } from '../../result/types.js';
import { resolveRunClock } from '../../run/as-of.js';
import { scopeCap } from '../../run/cap.js';
import { parseRunRequest } from '../../run/request.js';
import { stringifyJsonSafely } from '../../sanitize.js';
import { validateTicker } from '../../market/ticker.js';
import type { ProbeCliOptions } from '../command-table.js';
import type { CliDeps } from '../deps.js';
import { exitCodeForStatus, formatError, worstExitCode } from '../exit.js';
import { colorEnabled, type CliIo } from '../io.js';
import { createProgress } from '../progress.js';
import { redactingIo } from '../redact.js';
import { openSession } from '../request-session.js';
import { requestFromFlags } from '../run-request-flags.js';
import type { Session } from '../services.js';
import { checkPricesKnown } from './analyze.js';
import { checkReplayFlags } from './demo-options.js';

/**
 * `autohedge probe <ticker>`: did the model read the data or remember the stock? One
 * named and one blind run of the same ticker and day over one market fetch, both with no
 * web search or MCP tools (so the name is the only difference), each saved like any run
 * (runAndSave), then compared side by side. `--demo` replays the probe of ACME that the
 * shipped demo cassette holds.
 */
export async function probeCommand(
  rawTicker: string,
  options: ProbeCliOptions,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
): Promise<number> {
  const ticker = validateTicker(rawTicker);
  checkReplayFlags(options);
  const request = parseRunRequest({ ...requestFromFlags(options, 'none'), ticker });
  // Before any client exists: a closed or future day is the user's to fix, with no request made.
  resolveRunClock(request, deps.now?.() ?? new Date(), () => new Date());
  const session = await openSession(request, io, { ...deps, search: null }, argv);
  try {
    if (options.demo) session.checkDemoTickers([ticker], 'probe');
    if (options.maxCost !== undefined) checkPricesKnown(options.model, undefined, session, 'none');
    const safeIo = redactingIo(io, session.secrets);
    const progress = await createProgress({
      write: safeIo.stderr,
      live: false,
      quiet: options.quiet,
      color: colorEnabled(io.env, io.stderrIsTTY),
      secrets: session.secrets,
    });
    const answered = answeredByCassette(session);
    // One cap for both runs: the probe is one command.
    const scope = {
      cap: scopeCap(request.maxCostUsd, session),
      keep: answered.keep,
      ...(io.signal ? { signal: io.signal } : {}),
    };
    const sinksFor = (kind: 'named' | 'blind') => ({
      events: progress.sink(kind === 'named' ? ticker : `${ticker} blind`),
      warn: (message: string) => safeIo.stderr(`autohedge: warning: ${message}\n`),
      info: (message: string) => {
        if (!options.quiet) safeIo.stderr(`${message}\n`);
      },
    });
    const outcome = await runProbe(request, session, sinksFor, scope);
    progress.stop();
    const misses = replayMissesOf(session, [outcome.named, outcome.blind]);
    for (const miss of misses) safeIo.stderr(`${formatError(new CassetteError(miss), false)}\n`);
    if (answered.dropped.length > 0 && request.save) safeIo.stderr(`autohedge: ${droppedLine(answered.dropped)}\n`);
    safeIo.stdout(options.json ? `${stringifyJsonSafely(outcome.comparison, 2)}\n` : renderProbe(outcome.comparison));
    await session.finish(safeIo);
    const code = worstExitCode([exitCodeForStatus(outcome.named.status), exitCodeForStatus(outcome.blind.status)]);
    // As analyze: a cassette that cannot answer is stale or wrong (re-record it), exit 2.
    return misses.length > 0 && code !== ExitCode.interrupted ? ExitCode.usage : code;
  } finally {
    await session.close();
  }
}

function droppedLine(dropped: readonly string[]): string {
  const which = dropped.length > 1 ? 'neither run was saved' : `its ${dropped[0]} run was not saved`;
  return `the cassette could not answer this probe: ${which} (re-record the cassette with --record)`;
}

/**
 * The requests a replay had no recording for; a Director's review pass that was not
 * recorded is not one of them (the run keeps its first decision, flagged, as analyze does).
 */
function replayMissesOf(session: Session, results: readonly AnalysisResult[]): string[] {
  const reviewNotReplayed = results.some((result) => result.reviewFailure?.kind === 'replay-miss');
  return session.replayMisses(reviewNotReplayed ? ['director'] : []);
}

/**
 * Whether a run is kept (saved): not when the replayed cassette could not answer it. Such
 * a run failed for the cassette's sake, not the model's, and would sit in the store as a
 * failed analysis. The probe's runs are sequential (named, then blind): once the named run
 * missed, the blind one is not kept either.
 */
function answeredByCassette(session: Session): {
  keep: (result: AnalysisResult) => boolean;
  dropped: string[];
} {
  const order = ['named', 'blind'];
  let missed = false;
  const dropped: string[] = [];
  return {
    keep: (result) => {
      const run = order.shift() ?? 'blind';
      missed ||= replayMissesOf(session, [result]).length > 0;
      if (missed) dropped.push(run);
      return !missed;
    },
    dropped,
  };
}
