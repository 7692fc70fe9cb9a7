import { join } from 'node:path';
import { writeFileAtomic } from '../../atomic-write.js';
import { ConfigError, ExitCode, UsageError, errorMessage } from '../../errors.js';
import { evaluateRuns, type Evaluation, type PriceSource } from '../../evaluate/evaluate.js';
import { evaluationDocument } from '../../evaluate/document.js';
import { makeEvaluationId } from '../../evaluate/evaluation-id.js';
import { applyForward } from '../../evaluate/forward-selection.js';
import { selectRuns, unreadableCount, type SkippedRun } from '../../evaluate/select.js';
import { withoutReruns } from '../../evaluate/reruns.js';
import { summarize } from '../../evaluate/summary.js';
import { validateTicker } from '../../market/ticker.js';
import { autohedgeHome, demoEvaluationCassettePath } from '../../paths.js';
import { defaultBenchmark, defaultHorizons } from '../../evaluate/defaults.js';
import type { EvaluationView } from '../../report/evaluation.js';
import type { AnalysisResult } from '../../result/types.js';
import { sanitizeText, stringifyJsonSafely } from '../../sanitize.js';
import type { CliDeps } from '../deps.js';
import { reportOptions, type CliIo } from '../io.js';
import type { EvaluateCliOptions } from '../command-table.js';
import { buildServices } from '../services.js';
import { summaryOptionsOf } from './evaluate-options.js';

/** `autohedge evaluate [runIds...]`: saved decisions scored against the prices that came after them. */

export async function evaluateCommand(
  runIds: string[],
  options: EvaluateCliOptions,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
): Promise<number> {
  const outcome = await evaluateSaved(runIds, options, io, deps, argv);
  if ('misses' in outcome) {
    for (const miss of outcome.misses) io.stderr(`autohedge: ${miss}\n`);
    return ExitCode.usage;
  }
  const { view, savedAt, unscored } = outcome;
  await printEvaluation(view, options, io);
  for (const warning of view.evaluation.warnings) warn(io, options, warning);
  await saveEvaluation(view, options, autohedgeHome(io.env), io, savedAt);
  reportUnreadable(view, io);
  return unscored ? ExitCode.degraded : ExitCode.ok;
}

type AttributionKeys =
  | 'sectorBenchmarks'
  | 'spreadBps'
  | 'slippageBps'
  | 'notional'
  | 'trials'
  | 'resamples'
  | 'forwardOnly'
  | 'trustLocalClock';

/**
 * What scores saved runs: the selection and scoring options of `evaluate`; the MCP
 * `evaluate` tool passes the same, the attribution ones left at their defaults.
 */
export type EvaluationOptions = Pick<
  EvaluateCliOptions,
  'since' | 'horizon' | 'benchmark' | 'seed' | 'includeDemo' | 'demo' | 'record' | 'replay' | 'quiet'
> &
  Partial<Pick<EvaluateCliOptions, AttributionKeys>> & {
    /** Whose words a refusal uses: the CLI's flags (default) or the MCP tool's inputs. */
    askedBy?: 'cli' | 'mcp';
  };

/** `savedAt`: when the evaluation was made (its id), not the prices' clock, which a replay fixes. */
export type EvaluationOutcome = { view: EvaluationView; savedAt: Date; unscored: boolean } | { misses: string[] };

/**
 * Saved decisions scored against the prices after them, for `evaluate` and the MCP
 * `evaluate` tool alike; `misses` when a replayed cassette lacked a request. `unscored`:
 * a decision, a benchmark or a saved run could not be scored or read (exit 3).
 */
export async function evaluateSaved(
  runIds: string[],
  options: EvaluationOptions,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
): Promise<EvaluationOutcome> {
  const benchmark = validateTicker(options.benchmark);
  if (options.record && options.replay) throw new UsageError('--record and --replay cannot be combined');
  if (options.demo) checkDemoEvaluation(options);
  const home = autohedgeHome(io.env);
  const { selected, selection, forward, reruns } = await runsToEvaluate(home, runIds, options);
  const session = await buildServices(
    {
      env: io.env,
      cwd: io.cwd,
      record: options.record,
      replay: options.demo ? demoEvaluationCassettePath() : options.replay,
      argv,
      needsModel: false,
      fundamentals: false,
      warn: (message) => warn(io, options, message),
    },
    deps,
  );
  try {
    const market = session.market;
    if (!market.bars) throw new ConfigError('this market-data client cannot fetch price history');
    const prices: PriceSource = { bars: (ticker, span) => market.bars!(ticker, span) };
    const now = session.asOf();
    let evaluation: Evaluation;
    try {
      evaluation = await evaluateRuns(
        selection.results,
        {
          horizons: options.horizon,
          benchmark,
          now,
          signal: io.signal,
          sectorBenchmarks: options.sectorBenchmarks ?? false,
        },
        prices,
      );
    } catch (error) {
      const misses = session.replayMisses();
      if (misses.length === 0) throw error;
      return { misses };
    }
    const view: EvaluationView = {
      evaluation,
      summary: summarize(evaluation, options.seed, summaryOptionsOf(options)),
      skipped: selection.skipped,
      reruns,
      forward: { ...forward, total: selected.results.length },
      ...demoOf(selection.results, options.demo),
    };
    await session.finish(io);
    const unscored =
      unreadableCount(view) > 0 ||
      evaluation.decisions.some((row) => row.problem !== null) ||
      evaluation.warnings.some(
        (warning) => warning.startsWith(`benchmark ${benchmark}:`) || warning.startsWith('sector benchmark '),
      );
    return { view, savedAt: session.now(), unscored };
  } finally {
    await session.close();
  }
}

/** The saved runs to score, or the usage error that there are none. */
async function runsToEvaluate(home: string, runIds: string[], options: EvaluationOptions) {
  // Re-runs of one call are set aside before anything is counted: n is the number of independent calls (#44).
  const selected = withoutReruns(
    await selectRuns(home, {
      runIds,
      since: options.since,
      includeDemo: options.includeDemo,
      demoOnly: options.demo,
    }),
  );
  if (selected.results.length === 0) {
    const why = skippedSummary(selected.skipped);
    throw new UsageError(
      options.demo
        ? `no saved demo run with a decision to evaluate${why} (run \`autohedge analyze ACME --demo\` first, then \`autohedge evaluate --demo\`)`
        : `no saved run with a decision to evaluate${why} (make some with \`autohedge analyze <ticker> --as-of YYYY-MM-DD\`)`,
    );
  }
  // The ledger's verdict on each decision (#26); with --forward-only only the forward ones are scored.
  const { selection, summary: forward } = await applyForward(
    home,
    selected,
    options.forwardOnly ?? false,
    options.trustLocalClock ?? false,
  );
  return { selected, selection, forward, reruns: selected.reruns };
}

/** Shown when a run is named alone; more are summarised by kind, not listed one by one (#44 item 20). */
const listedAtMost = 3;

/** Why nothing is left to score, in a few words: counts by kind, naming runs only when there are few. */
function skippedSummary(skipped: readonly SkippedRun[]): string {
  if (skipped.length === 0) return '';
  if (skipped.length <= listedAtMost) return `: ${skipped.map((item) => `${item.runId} — ${item.reason}`).join('; ')}`;
  const demo = skipped.filter((item) => item.reason.startsWith('a demo run')).length;
  const undecided = skipped.filter((item) => item.reason.startsWith('no decision')).length;
  const other = skipped.length - demo - undecided;
  const parts = [
    ...(demo > 0 ? [`${demo} demo run(s): score them with \`autohedge evaluate --demo\``] : []),
    ...(undecided > 0 ? [`${undecided} without a decision`] : []),
    ...(other > 0 ? [`${other} left out for other reasons (name a run id to see why)`] : []),
  ];
  return `: ${parts.join('; ')}`;
}

/** The demo evaluation replays the prices one evaluation needed: what would ask for others is refused up front. */
function checkDemoEvaluation(options: EvaluationOptions): void {
  if (options.record || options.replay)
    throw new UsageError('--demo replays the bundled demo prices: it cannot be combined with --record or --replay');
  const longest = Math.max(...defaultHorizons);
  const held = `the demo evaluation holds synthetic prices for ACME and ${defaultBenchmark} through ${longest} sessions after the demo day`;
  const words = demoRefusalWords[options.askedBy ?? 'cli'];
  // Each refusal names the option to drop or change, not another one.
  if (options.benchmark.toUpperCase() !== defaultBenchmark)
    throw new UsageError(
      `${held}: ${words.benchmark} ${options.benchmark} ${words.refused} (${words.drop(words.benchmark)}, or use ${defaultBenchmark})`,
    );
  if (options.sectorBenchmarks)
    throw new UsageError(`${held}: --sector-benchmarks cannot be combined with --demo (drop --sector-benchmarks)`);
  if (Math.max(...options.horizon) !== longest)
    throw new UsageError(
      `${held}: ${words.horizon} ${words.list(options.horizon)} ${words.refused} (horizons must end at ${longest}, e.g. ${words.horizon} ${words.list(defaultHorizons)})`,
    );
}

/** How a demo refusal names what to change: a flag to the CLI user, a tool input to the MCP client. */
const demoRefusalWords = {
  cli: {
    benchmark: '--benchmark',
    horizon: '--horizon',
    refused: 'cannot be combined with --demo',
    drop: (name: string) => `drop ${name}`,
    list: (values: readonly number[]) => values.join(','),
  },
  mcp: {
    benchmark: 'benchmark',
    horizon: 'horizons',
    refused: 'cannot be scored by this demo server (autohedge mcp --demo)',
    drop: (name: string) => `leave ${name} out`,
    list: (values: readonly number[]) => `[${values.join(', ')}]`,
  },
} as const;

/** The demo label of an evaluation that scored demo runs (synthetic analyses), or nothing. */
function demoOf(
  results: readonly AnalysisResult[],
  syntheticPrices: boolean | undefined,
): Pick<EvaluationView, 'demo'> {
  const runs = results.filter((result) => result.demo).length;
  return runs > 0 || syntheticPrices ? { demo: { runs, syntheticPrices: syntheticPrices === true } } : {};
}

function warn(io: CliIo, options: Pick<EvaluateCliOptions, 'quiet'>, message: string): void {
  // Warnings name tickers and run ids read from saved files: untrusted text.
  if (!options.quiet) io.stderr(`autohedge: warning: ${sanitizeText(message)}\n`);
}

/** Said even with --quiet: these runs are why the exit code is not 0. */
function reportUnreadable(view: EvaluationView, io: CliIo): number {
  const count = unreadableCount(view);
  if (count > 0)
    io.stderr(
      `autohedge: ${count} saved run(s) could not be read and are not in this evaluation (listed under "skipped"); exit ${ExitCode.degraded}\n`,
    );
  return count;
}

/** The value `evaluate --json` prints, and the MCP `evaluate` tool's structuredContent: one document. */
export function evaluationJson(view: EvaluationView): Record<string, unknown> {
  return evaluationDocument(view) as unknown as Record<string, unknown>;
}

function jsonOf(view: EvaluationView): string {
  return `${stringifyJsonSafely(evaluationJson(view), 2)}\n`;
}

async function printEvaluation(view: EvaluationView, options: EvaluateCliOptions, io: CliIo): Promise<void> {
  if (options.json) {
    io.stdout(jsonOf(view));
    return;
  }
  const { renderEvaluationTerminal } = await import('../../report/evaluation.js');
  io.stdout(renderEvaluationTerminal(view, { unicode: reportOptions(io).unicode }));
}

/** evaluation.json and evaluation.md under $AUTOHEDGE_HOME/evaluations/<id>/ (unless --no-save), and in --out. */
async function saveEvaluation(
  view: EvaluationView,
  options: EvaluateCliOptions,
  home: string,
  io: CliIo,
  now: Date,
): Promise<void> {
  const directories = [
    ...(options.save ? [join(home, 'evaluations', makeEvaluationId(now))] : []),
    ...(options.out ? [options.out] : []),
  ];
  if (directories.length === 0) return;
  const { renderEvaluationMarkdown } = await import('../../report/evaluation.js');
  const { evaluationHtmlFile } = await import('../../report/evaluation-html.js');
  const markdown = renderEvaluationMarkdown(view);
  for (const directory of directories) {
    try {
      await writeFileAtomic(join(directory, 'evaluation.md'), markdown, { createParents: true });
      await writeFileAtomic(
        join(directory, 'evaluation.html'),
        evaluationHtmlFile(evaluationDocument(view), directory, home),
        {
          createParents: true,
        },
      );
      await writeFileAtomic(join(directory, 'evaluation.json'), jsonOf(view), { createParents: true });
      if (!options.quiet) io.stderr(`autohedge: evaluation written to ${directory}\n`);
    } catch (error) {
      io.stderr(`autohedge: warning: evaluation not written to ${directory}: ${errorMessage(error)}\n`);
    }
  }
}
