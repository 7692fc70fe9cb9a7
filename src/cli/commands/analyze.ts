import { join } from 'node:path';
import { CassetteError, ConfigError, ExitCode, UsageError, errorMessage } from '../../errors.js';
import { priceFor } from '../../llm/prices.js';
import { SpendingCap, withBudget, withSearchBudget } from '../../pipeline/budget.js';
import { checkSearchForHistoricalRun, resolveSearchChoice } from '../../search/choice.js';
import type { SearchChoice } from '../../search/types.js';
import { resolveModels } from '../../pipeline/models.js';
import { agentIds, type WorkerId } from '../../pipeline/types.js';
import type { EventSink } from '../../events.js';
import type { AnalysisResult } from '../../pipeline/types.js';
import { analyzeMany, type TickerOutcome } from '../../pipeline/analyze-many.js';
import { autohedgeHome, demoCassettePath } from '../../paths.js';
import { resolveAsOf, type HistoricalAsOf } from '../../market/as-of.js';
import { validateTicker } from '../../market/ticker.js';
import { exitCodeFor, exitCodeForStatus, formatError, worstExitCode } from '../exit.js';
import { colorEnabled, reportOptions, type CliIo } from '../io.js';
import type { CliDeps } from '../deps.js';
import { analyzeOptionsSchema, parseOptions, type AnalyzeCliOptions } from '../options.js';
import { createProgress } from '../progress.js';
import { scrubDeep } from '../../scrub.js';
import { redactingIo } from '../redact.js';
import { runOptionsRecord, withRunRecord } from '../run-options.js';
import { buildServices, type Session } from '../services.js';

export { demoCassettePath };

/** `autohedge analyze <tickers...>`: a thin shell over the library's analyze(). */
/** `argv` is the whole command line, kept in a recorded cassette. */
export async function analyzeCommand(rawTickers: string[], rawOptions: Record<string, unknown>, io: CliIo, deps: CliDeps, argv: string[]): Promise<number> {
  const options = parseOptions(analyzeOptionsSchema, rawOptions);
  const tickers = [...new Set(rawTickers.map((ticker) => validateTicker(ticker)))];
  if ([options.record, options.replay, options.demo].filter(Boolean).length > 1) {
    throw new UsageError('--record, --replay and --demo cannot be combined');
  }
  if (options.demo && options.asOf !== undefined) throw new UsageError('--demo replays a live run of its own day; it cannot be combined with --as-of');
  // Before any client exists: a closed or future day is the user's to fix, with no request made.
  const historical = options.asOf !== undefined ? resolveAsOf(options.asOf, deps.now?.() ?? new Date()) : null;
  const search = resolveSearchChoice(options.search, io.env);
  checkSearchForHistoricalRun(search, historical !== null);
  const session: Session = await buildServices(
    {
      env: io.env,
      cwd: io.cwd,
      baseUrl: options.baseUrl,
      record: options.record,
      replay: options.demo ? demoCassettePath() : options.replay,
      demo: options.demo,
      refresh: options.refresh,
      argv,
      needsModel: true,
      search,
      warn: (message) => io.stderr(`autohedge: warning: ${message}\n`),
      mcpConfig: options.mcpConfig,
    },
    deps,
  );
  try {
    if (options.demo) session.checkDemoTickers(tickers);
    if (options.maxCost !== undefined) checkPricesKnown(options.model, options.agent, session, search);
    return await runAnalyses(tickers, options, session, redactingIo(io, session.secrets), historical);
  } finally {
    await session.close();
  }
}

async function runAnalyses(tickers: string[], options: AnalyzeCliOptions, session: Session, io: CliIo, historical: HistoricalAsOf | null): Promise<number> {
  const stderrColor = colorEnabled(io.env, io.stderrIsTTY);
  const progress = await createProgress({
    write: io.stderr,
    live: io.stderrIsTTY && io.columns > 0 && !options.trace,
    quiet: options.quiet,
    color: stderrColor,
    stream: process.stderr,
    rows: io.rows,
    columns: io.columns,
  });
  const { createTraceSink } = options.trace ? await import('../../report/trace.js') : { createTraceSink: null };
  const { createTranscript } = await import('../../report/transcript.js');
  const transcripts = new Map<string, ReturnType<typeof createTranscript>>();
  const secrets = session.secrets;

  // One cap for the whole command, its model calls and searches, however many tickers share it.
  const cap = options.maxCost !== undefined ? new SpendingCap(options.maxCost, { stopAfterCap: session.replaying }) : null;
  const model = cap ? withBudget(session.model, cap, session.prices) : session.model;
  const search = cap && session.search ? withSearchBudget(session.search, cap, session.prices) : session.search;

  let outcomes: TickerOutcome[];
  try {
    outcomes = await analyzeMany(
      tickers,
      options.concurrency,
      () => ({
        asOf: historical?.close ?? session.asOf(),
        historical: historical !== null,
        agents: options.agent,
        model: options.model,
        env: session.env,
        maxPositionPct: options.maxPosition,
        guardrailLimits: { maxRiskPct: options.maxRisk, minRewardRisk: options.minRewardRisk },
        signal: io.signal,
        refresh: options.refresh,
        demo: session.demo,
      }),
      (ticker) => {
        const transcript = createTranscript({ secrets });
        transcripts.set(ticker, transcript);
        const sinks: EventSink[] = [progress.sink(ticker), transcript.sink];
        if (createTraceSink) sinks.push(createTraceSink({ write: io.stderr, color: stderrColor, label: tickers.length > 1 ? ticker : undefined }));
        return {
          model,
          market: session.market,
          search,
          prices: session.prices,
          agentTools: session.mcp?.agentTools,
          events: (event) => {
            for (const sink of sinks) sink(event);
          },
        };
      },
      io.signal,
    );
  } finally {
    progress.stop();
  }

  const record = runOptionsRecord(options, session);
  const results = outcomes.flatMap((outcome) => (outcome.result ? [scrubDeep(withRunRecord(outcome.result, record), secrets)] : []));
  for (const outcome of outcomes) {
    if (outcome.error !== undefined) io.stderr(`${formatError(outcome.error, options.verbose)}${tickers.length > 1 ? ` (${outcome.ticker})` : ''}\n`);
  }
  // A Director's review the cassette does not hold leaves its decision standing, flagged,
  // with a warning: the run says so itself, so that miss is not a stale cassette.
  const reviewNotReplayed = results.some((result) => result.reviewFailure?.kind === 'replay-miss');
  const misses = session.replayMisses(reviewNotReplayed ? ['director'] : []);
  for (const miss of misses) io.stderr(`${formatError(new CassetteError(miss), false)}\n`);

  if (results.length > 0) {
    if (options.json) {
      const { renderJson } = await import('../../report/terminal.js');
      io.stdout(renderJson(tickers.length === 1 ? (results[0] as AnalysisResult) : results));
    } else {
      const { renderTerminal } = await import('../../report/terminal.js');
      // Without --no-save the footer names the run id `runs show` finds; with it, that id would lead nowhere.
      io.stdout(results.map((result) => renderTerminal(result, { ...reportOptions(io), saved: options.save })).join('\n'));
    }
  }
  await saveResults(results, transcripts, options, session, io);
  await session.finish(io);
  const code = worstExitCode(outcomes.map((outcome) => (outcome.result === undefined ? exitCodeFor(outcome.error) : exitCodeForStatus(outcome.result.status))));
  // A replay that asked for something its cassette does not hold is a stale or wrong
  // cassette (re-record it), not a failed analysis: exit like a usage error.
  return misses.length > 0 && code !== ExitCode.interrupted ? ExitCode.usage : code;
}

async function saveResults(
  results: AnalysisResult[],
  transcripts: Map<string, { lines(): string[] }>,
  options: AnalyzeCliOptions,
  session: Session,
  io: CliIo,
): Promise<void> {
  if (results.length === 0 || (!options.save && !options.out)) return;
  const { saveRun, writeRunFiles } = await import('../../store/index.js');
  const { renderRunFiles } = await import('../../report/run-files.js');
  for (const result of results) {
    const files = { transcript: transcripts.get(result.ticker)?.lines() ?? [], ...renderRunFiles(result) };
    if (options.save) {
      try {
        const { dir } = await saveRun(autohedgeHome(session.env), result, files);
        if (!options.quiet) io.stderr(`saved ${dir}\n`);
      } catch (error) {
        io.stderr(`autohedge: warning: run ${result.runId} not saved: ${errorMessage(error)}\n`);
      }
    }
    if (options.out) {
      const directory = results.length > 1 ? join(options.out, result.ticker) : options.out;
      try {
        await writeRunFiles(directory, result, files);
        if (!options.quiet) io.stderr(`wrote ${directory}\n`);
      } catch (error) {
        io.stderr(`autohedge: warning: could not write --out ${directory}: ${errorMessage(error)}\n`);
      }
    }
  }
}

/** A cap cannot be enforced on a model (or a search) whose price is unknown: say so before spending anything. */
export function checkPricesKnown(model: string | undefined, agents: readonly WorkerId[] | undefined, session: Session, search: SearchChoice, cap = '--max-cost'): void {
  const models = resolveModels(model, session.env);
  const involved = agents && agents.length > 0 ? agents : agentIds;
  const searching = search !== 'none' && (involved as readonly string[]).includes('sentiment');
  const searchModel = session.search?.model ?? session.search?.id;
  const searchPriced = searching && searchModel ? [searchModel] : [];
  const unpriced = [...new Set([...involved.map((id) => models[id]), ...searchPriced].filter((name) => priceFor(name, session.prices) === null))];
  if (unpriced.length > 0) {
    throw new ConfigError(
      `${cap} needs a price for every model, and none is known for ${unpriced.map((model) => `'${model}'`).join(', ')}: add it to AUTOHEDGE_PRICES (inline JSON or a JSON file's path)`,
    );
  }
}


