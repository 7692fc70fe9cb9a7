import { isoDay } from '../../clock.js';
import { ConfigError, UsageError } from '../../errors.js';
import { priceFor } from '../../llm/prices.js';
import { analyzeEach } from '../../universe/analyze-many.js';
import { resolveSearchChoice } from '../../search/choice.js';
import type { SearchChoice } from '../../search/types.js';
import { resolveModels } from '../../pipeline/models.js';
import { capReached } from '../../pipeline/run-failure.js';
import { agentIds, type WorkerId } from '../../result/types.js';
import { tickersUntil } from '../../universe/universe.js';
import { autohedgeHome, demoCassettePath } from '../../paths.js';
import { resolveRunClocks } from '../../run/as-of.js';
import { scopeCap } from '../../run/cap.js';
import { type RunRequest } from '../../run/request.js';
import { outFor, runAndSave } from '../../run/run-and-save.js';
import { finishedTickers } from '../../store/finished-runs.js';
import type { CliIo } from '../io.js';
import type { CliDeps } from '../deps.js';
import type { AnalyzeCliOptions } from '../command-table.js';
import { redactingIo } from '../redact.js';
import { ceilingsOf } from '../options.js';
import { openSession } from '../request-session.js';
import { plannedRequests } from '../run-request-flags.js';
import { commandTickers, requiredTickers } from '../tickers.js';
import { checkBlindAndSamples } from './blind-options.js';
import { checkReplayFlags } from './demo-options.js';
import { checkedFlagBaseUrl, type Session } from '../services.js';
import { createUniverseOutput } from './analyze-output.js';

export { demoCassettePath };

/**
 * `autohedge analyze <tickers...>`: one RunRequest per ticker from the flags, each
 * run by runAndSave on one session, under one cap for the whole command. `argv` is the
 * whole command line, kept in a recorded cassette.
 */
export async function analyzeCommand(
  rawTickers: string[],
  options: AnalyzeCliOptions,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
): Promise<number> {
  checkCombinations(options);
  const { named, tickers } = await commandTickers(
    rawTickers,
    options.universe,
    io.cwd,
    requiredTickers(options.universe),
  );
  warnRepeated(named, options, io);
  checkedFlagBaseUrl(options.baseUrl);
  // A blind run searches nothing (a query would name the company); an explicit --search was refused above.
  const search = options.blind ? 'none' : resolveSearchChoice(options.search, io.env);
  const requests = plannedRequests(tickers, options, search, deps.now?.() ?? new Date());
  const session = await openSession(requests[0]!, io, deps, argv, { ceilings: ceilingsOf(options) });
  try {
    if (options.demo) session.checkDemoTickers(tickers);
    if (options.maxCost !== undefined) checkPricesKnown(options.model, options.agent, session, search);
    // --json is an array whenever more than one ticker was named (a repeated one included).
    const several = rawTickers.length > 1 || tickers.length > 1;
    return await runAnalyses(requests, options, session, redactingIo(io, session.secrets), several);
  } finally {
    await session.close();
  }
}

function warnRepeated(named: readonly string[], options: AnalyzeCliOptions, io: CliIo): void {
  const repeated = [...new Set(named.filter((ticker, index) => named.indexOf(ticker) !== index))];
  if (repeated.length > 0 && !options.quiet)
    io.stderr(`autohedge: warning: ${repeated.join(', ')} named more than once: analysed once\n`);
}

function checkCombinations(options: AnalyzeCliOptions): void {
  checkReplayFlags(options);
  if (options.json && options.jsonl)
    throw new UsageError(
      '--json and --jsonl cannot be combined: --json prints one array at the end, --jsonl one line per result as it finishes',
    );
  if (options.resume && !options.save)
    throw new UsageError('--resume reads and fills the run store: it cannot be combined with --no-save');
  checkBlindAndSamples(options);
}

async function runAnalyses(
  requests: RunRequest[],
  options: AnalyzeCliOptions,
  session: Session,
  io: CliIo,
  several: boolean,
): Promise<number> {
  // Each ticker's as-of day on its own exchange's clock (a universe may mix exchanges).
  const clocks = resolveRunClocks(requests, session.now(), () => session.asOf());
  const asOfDays = new Map(requests.map((request, index) => [request.ticker, isoDay(clocks[index]!.at)]));
  const finished = options.resume ? await finishedOnTheirDay(autohedgeHome(session.env), asOfDays) : new Set<string>();
  const pending = requests.filter((request) => !finished.has(request.ticker));
  if (options.resume && !options.quiet) {
    const days = [...new Set(asOfDays.values())];
    io.stderr(
      `autohedge: --resume: ${requests.length - pending.length} of ${requests.length} tickers already have a finished run for ${days.length === 1 ? days[0] : 'their as-of day'}; analysing ${pending.length}\n`,
    );
  }
  const tickers = requests.map((request) => request.ticker);
  const output = await createUniverseOutput({ tickers, options, session, io, several });
  for (let skipped = requests.length - pending.length; skipped > 0; skipped -= 1) output.tally.addSkipped();
  // One cap for the whole command, however many tickers share it; once a run reports it
  // reached, no further ticker starts (they would only fetch market data to report the cap).
  const cap = scopeCap(options.maxCost, session);
  const perTickerOut = requests.length > 1;
  const byTicker = new Map(pending.map((request) => [request.ticker, request]));
  let reached = false;
  const notStarted = { count: 0 };
  try {
    await analyzeEach(
      tickersUntil([...byTicker.keys()], () => reached, notStarted),
      {
        concurrency: options.concurrency,
        run: async (ticker) => {
          const request = byTicker.get(ticker)!;
          const planned = { ...request, out: outFor(request.out, ticker, perTickerOut) };
          const { result } = await runAndSave(planned, session, output.sinksFor(ticker), { cap, signal: io.signal });
          if (capReached(result)) reached = true;
          return result;
        },
        signal: io.signal,
        onOutcome: (outcome) => output.add(outcome),
      },
    );
  } finally {
    output.stopProgress();
  }
  if (notStarted.count > 0)
    io.stderr(
      `autohedge: warning: --max-cost $${options.maxCost?.toFixed(4)} reached: ${notStarted.count} ticker(s) not started (run again with --resume to continue)\n`,
    );
  return output.finish(session);
}

/** A cap cannot be enforced on a model (or a search) whose price is unknown: say so before spending anything. */
export function checkPricesKnown(
  model: string | undefined,
  agents: readonly WorkerId[] | undefined,
  session: Session,
  search: SearchChoice,
  cap = '--max-cost',
): void {
  const models = resolveModels(model, session.env);
  const involved = agents && agents.length > 0 ? agents : agentIds;
  const searching = search !== 'none' && (involved as readonly string[]).includes('sentiment');
  const searchModel = session.search?.model ?? session.search?.id;
  const searchPriced = searching && searchModel ? [searchModel] : [];
  const unpriced = [
    ...new Set(
      [...involved.map((id) => models[id]), ...searchPriced].filter((name) => priceFor(name, session.prices) === null),
    ),
  ];
  if (unpriced.length > 0) {
    throw new ConfigError(
      `${cap} needs a price for every model, and none is known for ${unpriced.map((model) => `'${model}'`).join(', ')}: add it to AUTOHEDGE_PRICES (inline JSON or a JSON file's path)`,
    );
  }
}

/** The tickers with a finished run on their own as-of day (one store read per distinct day). */
async function finishedOnTheirDay(home: string, asOfDays: ReadonlyMap<string, string>): Promise<Set<string>> {
  const finished = new Set<string>();
  for (const day of new Set(asOfDays.values())) {
    const done = await finishedTickers(home, day);
    for (const [ticker, own] of asOfDays) if (own === day && done.has(ticker)) finished.add(ticker);
  }
  return finished;
}
