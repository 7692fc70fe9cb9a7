import { CassetteError, ExitCode, UsageError, errorMessage } from '../../errors.js';
import { resolveAsOf } from '../../market/as-of.js';
import { validateTicker } from '../../market/ticker.js';
import type { MarketData } from '../../market/types.js';
import { autohedgeHome } from '../../paths.js';
import type { AnalyzeDeps } from '../../pipeline/analyze.js';
import { SpendingCap, withBudget } from '../../pipeline/budget.js';
import { defaultLimits } from '../../guardrails/guardrails.js';
import type { AnalysisResult } from '../../result/types.js';
import { renderProbe, type ProbeComparison } from '../../probe/compare.js';
import { runProbe } from '../../probe/run-probe.js';
import { stringifyJsonSafely } from '../../sanitize.js';
import { scrubDeep } from '../../scrub.js';
import type { CliDeps } from '../deps.js';
import { exitCodeForStatus, formatError, worstExitCode } from '../exit.js';
import { colorEnabled, warningWriter, type CliIo } from '../io.js';
import type { ProbeCliOptions } from '../command-table.js';
import { createProgress } from '../progress.js';
import { redactingIo } from '../redact.js';
import { runOptionsRecord, withRunRecord } from '../run-options.js';
import { buildServices, type Session } from '../services.js';
import { checkPricesKnown } from './analyze.js';

/**
 * `autohedge probe <ticker>`: did the model read the data or remember the stock? One
 * named and one blind run of the same ticker and day over one market fetch, both with no
 * web search or MCP tools (so the name is the only difference), saved like any run, then
 * compared side by side.
 */
export async function probeCommand(
  rawTicker: string,
  options: ProbeCliOptions,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
): Promise<number> {
  if (options.record && options.replay) throw new UsageError('--record and --replay cannot be combined');
  const ticker = validateTicker(rawTicker);
  const historical = options.asOf !== undefined ? resolveAsOf(options.asOf, deps.now?.() ?? new Date()) : null;
  const session = await buildServices(
    {
      env: io.env,
      cwd: io.cwd,
      baseUrl: options.baseUrl,
      record: options.record,
      replay: options.replay,
      argv,
      needsModel: true,
      search: 'none',
      warn: warningWriter(io),
    },
    // The probe searches nothing: a named run with news would differ from the blind one for the news.
    { ...deps, search: null },
  );
  try {
    if (options.maxCost !== undefined) checkPricesKnown(options.model, undefined, session, 'none');
    const safeIo = redactingIo(io, session.secrets);
    const outcome = await probe(ticker, options, session, safeIo, historical?.close ?? null);
    const misses = session.replayMisses();
    for (const miss of misses) safeIo.stderr(`${formatError(new CassetteError(miss), false)}\n`);
    safeIo.stdout(options.json ? `${stringifyJsonSafely(outcome.comparison, 2)}\n` : renderProbe(outcome.comparison));
    await session.finish(safeIo);
    const code = worstExitCode([exitCodeForStatus(outcome.named.status), exitCodeForStatus(outcome.blind.status)]);
    return misses.length > 0 && code !== ExitCode.interrupted ? ExitCode.usage : code;
  } finally {
    await session.close();
  }
}

async function probe(
  ticker: string,
  options: ProbeCliOptions,
  session: Session,
  io: CliIo,
  historicalClose: Date | null,
): Promise<{ named: AnalysisResult; blind: AnalysisResult; comparison: ProbeComparison }> {
  const cap =
    options.maxCost !== undefined ? new SpendingCap(options.maxCost, { stopAfterCap: session.replaying }) : null;
  // One cap for both runs: the probe is one command.
  const model = cap ? withBudget(session.model, cap, session.prices) : session.model;
  const progress = await createProgress({
    write: io.stderr,
    live: false,
    quiet: options.quiet,
    color: colorEnabled(io.env, io.stderrIsTTY),
    secrets: session.secrets,
  });
  const { createTranscript } = await import('../../report/transcript.js');
  const transcripts = {
    named: createTranscript({ secrets: session.secrets }),
    blind: createTranscript({ secrets: session.secrets }),
  };
  const depsFor = (kind: 'named' | 'blind', market: MarketData): AnalyzeDeps => {
    const sink = progress.sink(kind === 'named' ? ticker : `${ticker} blind`);
    return {
      model,
      market,
      search: null,
      prices: session.prices,
      events: (event) => {
        sink(event);
        transcripts[kind].sink(event);
      },
    };
  };
  const outcome = await runProbe(
    ticker,
    {
      asOf: historicalClose ?? session.asOf(),
      historical: historicalClose !== null,
      ...(options.model !== undefined ? { model: options.model } : {}),
      env: session.env,
      maxPositionPct: defaultLimits.maxPositionPct,
      signal: io.signal,
      replay: session.replaying,
    },
    depsFor,
    session.market,
  );
  progress.stop();
  const named = await keep(outcome.named, false, transcripts.named.lines(), options, session, io);
  const blind = await keep(outcome.blind, true, transcripts.blind.lines(), options, session, io);
  return { named, blind, comparison: outcome.comparison };
}

/** Each run of a probe is saved like any analysis (evaluate groups them by blind and named). */
async function keep(
  raw: AnalysisResult,
  blind: boolean,
  transcript: string[],
  options: ProbeCliOptions,
  session: Session,
  io: CliIo,
): Promise<AnalysisResult> {
  const record = runOptionsRecord(
    {
      model: options.model,
      agent: [],
      maxPosition: defaultLimits.maxPositionPct,
      maxRisk: defaultLimits.maxRiskPct,
      minRewardRisk: defaultLimits.minRewardRisk,
      maxCost: options.maxCost,
      search: 'none',
      blind,
    },
    session,
  );
  const result = scrubDeep(withRunRecord(raw, record), session.secrets);
  if (!options.save) return result;
  const { saveRun } = await import('../../store/index.js');
  const { renderRunFiles } = await import('../../report/run-files.js');
  try {
    const { dir } = await saveRun(autohedgeHome(session.env), result, { transcript, ...renderRunFiles(result) });
    if (!options.quiet) io.stderr(`saved ${dir}\n`);
  } catch (error) {
    io.stderr(`autohedge: warning: run ${result.runId} not saved: ${errorMessage(error)}\n`);
  }
  return result;
}
