import { join, resolve } from 'node:path';
import { CassetteError, ExitCode, UsageError, errorMessage } from '../../errors.js';
import { autohedgeHome } from '../../paths.js';
import { resolveSearchChoice } from '../../search/choice.js';
import { commandTickers } from '../tickers.js';
import { constructPortfolio } from '../../portfolio/construct.js';
import { defaultMic, exchangeCalendar } from '../../market/calendar/index.js';
import { describeSkipped, readHoldingsFile, resolveCash } from '../../portfolio/holdings.js';
import {
  decisionOf,
  fetchMarketInputs,
  inBaseCurrency,
  newestDecisions,
  type SelectedDecisions,
} from '../../portfolio/inputs.js';
import type { MarketSnapshot } from '../../market/types.js';
import type { Holdings, PortfolioLimits, PortfolioPlan } from '../../portfolio/types.js';
import { formatNumber } from '../../report/format.js';
import type { PortfolioReport } from '../../report/portfolio.js';
import { sanitizeText, stringifyJsonSafely } from '../../sanitize.js';
import { portfolioId, portfoliosDirectory, writePortfolioFiles } from '../../store/portfolios.js';
import type { CliDeps } from '../deps.js';
import { formatError } from '../exit.js';
import { reportOptions, warningWriter, type CliIo } from '../io.js';
import type { PortfolioCliOptions } from '../command-table.js';
import { redactingIo } from '../redact.js';
import { serviceConfigOf } from '../request-session.js';
import { buildServices, type ServiceConfig, type Session } from '../services.js';
import { analyzeFirst } from './portfolio-analyze.js';

/**
 * `autohedge portfolio --holdings <file> [tickers...]`: the user's book and the newest
 * saved decisions in, proposed orders out. A thin shell: the book is built by the pure
 * constructor in src/portfolio/construct.ts; nothing here places an order.
 */

export async function portfolioCommand(
  rawTickers: string[],
  options: PortfolioCliOptions,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
): Promise<number> {
  checkCombinations(options, rawTickers);
  const holdings = await bookOf(options, io);
  const named = await commandTickers(rawTickers, options.universe, io.cwd);
  const held = holdings.positions.map((position) => position.symbol);
  const namesNothing = named.tickers.length === 0 && !options.latest && runIdsOf(options).length === 0;
  if (namesNothing && held.length === 0 && !options.demo)
    throw new UsageError(
      'nothing to size: the book holds no positions and no decisions were named (name tickers, or --universe, --latest, --runs)',
    );
  const session = await buildServices(serviceConfig(options, io, argv), deps);
  const out = redactingIo(io, session.secrets);
  try {
    // A demo book of cash alone sizes the demo's own tickers.
    const tickers = namesNothing && held.length === 0 ? session.coveredTickers() : named.tickers;
    const selected = options.analyze
      ? await analyzedDecisions(tickers.length > 0 ? tickers : held, options, session, out)
      : await newestDecisions(
          autohedgeHome(io.env),
          { tickers, runIds: runIdsOf(options), latest: options.latest, demo: options.demo },
          held,
        );
    const names = [...new Set([...held, ...selected.decisions.map((decision) => decision.ticker)])];
    if (options.demo) session.checkDemoTickers(names, 'portfolio');
    const asOf = session.asOf();
    // The FX rates are of the book's day: the last session closed on the base market's calendar.
    const lastSession = exchangeCalendar(defaultMic).latestClosedSession(asOf);
    const listed = await fetchWithReplayReport(
      session,
      names,
      { asOf, refresh: options.refresh, signal: io.signal },
      io,
      selected.snapshots,
    );
    if (listed === null) return ExitCode.usage;
    const market = await inBaseCurrency(session.market, listed, {
      base: options.baseCurrency,
      day: lastSession,
      signal: io.signal,
    });
    const plan = constructPortfolio({
      holdings,
      decisions: selected.decisions,
      market,
      limits: limitsOf(options),
      clock: asOf.toISOString(),
      missing: selected.missing,
      baseCurrency: options.baseCurrency,
    });
    const report: PortfolioReport = { plan, asOf: asOf.toISOString(), lastSession, demo: session.demo };
    await printPlan(report, options, out);
    if (!options.quiet) for (const warning of plan.warnings) warningWriter(out)(warning);
    await savePlan(report, options, autohedgeHome(io.env), out, asOf);
    await session.finish(out);
    return ExitCode.ok;
  } finally {
    await session.close();
  }
}

/** The cash of the demo's book, when `--demo` is given no --holdings file. */
const demoBookCash = 100_000;

/** The user's book from --holdings; under --demo without one, a book of cash alone (said on stderr). */
async function bookOf(options: PortfolioCliOptions, io: CliIo): Promise<Holdings> {
  const source = options.holdings;
  if (source === undefined) {
    if (!options.demo) throw new UsageError('missing required option --holdings <file>');
    const cash = options.cash ?? demoBookCash;
    io.stderr(
      `autohedge: demo book: no positions, ${formatNumber(cash, 2)} ${options.baseCurrency} in cash (--holdings <file> for yours)\n`,
    );
    return { cash, positions: [] };
  }
  const parsed = await readHoldingsFile(resolve(io.cwd, source)).catch((error: unknown) => {
    throw error instanceof UsageError ? error : new UsageError(errorMessage(error));
  });
  const skipped = describeSkipped(parsed, source);
  if (skipped) io.stderr(`autohedge: note: ${skipped}\n`);
  return resolveCash(parsed, options.cash, source);
}

/** The clients: market data always; with --analyze, the model, search and MCP tools a run needs too. */
function serviceConfig(options: PortfolioCliOptions, io: CliIo, argv: string[]): ServiceConfig {
  const cassette = options.demo
    ? ({ mode: 'demo' } as const)
    : options.replay !== undefined
      ? ({ mode: 'replay', path: options.replay } as const)
      : options.record !== undefined
        ? ({ mode: 'record', path: options.record } as const)
        : undefined;
  const config = serviceConfigOf(
    {
      baseUrl: options.analyze ? options.baseUrl : undefined,
      cassette,
      mcpConfig: options.analyze ? options.mcpConfig : undefined,
      search: options.search === undefined ? undefined : resolveSearchChoice(options.search, io.env),
      refresh: options.refresh,
    },
    io,
    argv,
  );
  return { ...config, needsModel: options.analyze };
}

/** --analyze: a fresh, saved run per ticker through the run service; exactly those decisions are sized. */
async function analyzedDecisions(
  tickers: readonly string[],
  options: PortfolioCliOptions,
  session: Session,
  io: CliIo,
): Promise<SelectedDecisions> {
  if (tickers.length === 0) throw new UsageError('--analyze: no tickers to analyse (name some, or hold some)');
  if (options.demo) session.checkDemoTickers([...tickers]);
  const search = options.search === undefined ? undefined : resolveSearchChoice(options.search, io.env);
  const results = await analyzeFirst(tickers, options, search, session, io);
  for (const miss of session.replayMisses()) io.stderr(`${formatError(new CassetteError(miss), false)}\n`);
  const decisions = results.flatMap((result) => decisionOf(result) ?? []);
  const missing = results
    .filter((result) => decisionOf(result) === null)
    .map((result) => ({
      ticker: result.ticker,
      reason: `the analysis (run ${result.runId}) ended ${result.status} without a decision${result.error ? `: ${result.error}` : ''}`,
    }));
  const snapshots = new Map(
    results.flatMap((result) => (result.market ? [[result.ticker, result.market] as const] : [])),
  );
  return { decisions, missing, snapshots };
}

function checkCombinations(options: PortfolioCliOptions, tickers: string[]): void {
  if ([options.record, options.replay, options.demo].filter(Boolean).length > 1) {
    throw new UsageError('--record, --replay and --demo cannot be combined');
  }
  const sources = [tickers.length > 0 || options.universe, runIdsOf(options).length > 0, options.latest].filter(
    Boolean,
  );
  if (options.analyze && (runIdsOf(options).length > 0 || options.latest)) {
    throw new UsageError(
      '--analyze makes new runs: it takes tickers (or --universe, or the held ones), not --runs or --latest',
    );
  }
  if (sources.length > 1)
    throw new UsageError('name the decisions one way: tickers (or --universe), --runs, or --latest');
  if (options.json && options.csv) throw new UsageError('--json and --csv cannot be combined');
}

function limitsOf(options: PortfolioCliOptions): PortfolioLimits {
  return {
    minCashPct: options.minCashPct,
    maxWeightPct: options.maxWeightPct,
    maxSectorPct: options.maxSectorPct,
    maxGrossPct: options.maxGrossPct,
    maxNetPct: options.maxNetPct,
    maxRiskPct: options.maxRisk,
    targetVolPct: options.targetVolPct ?? null,
    maxTurnoverPct: options.maxTurnoverPct ?? null,
    minTradeUsd: options.minTradeUsd,
    fractional: options.fractional,
    allowShort: options.allowShort,
    includeFlagged: options.includeFlagged,
  };
}

/** Market inputs; under a replay that cannot answer, every missed request on its own line and null. */
async function fetchWithReplayReport(
  session: Session,
  tickers: string[],
  options: { asOf: Date; refresh: boolean; signal?: AbortSignal },
  io: CliIo,
  known?: ReadonlyMap<string, MarketSnapshot>,
): Promise<Awaited<ReturnType<typeof fetchMarketInputs>> | null> {
  try {
    return await fetchMarketInputs(session.market, tickers, options, known);
  } catch (error) {
    const misses = session.replayMisses();
    if (misses.length === 0) throw error;
    for (const miss of misses) io.stderr(`${formatError(new CassetteError(miss), false)}\n`);
    return null;
  }
}

export function planJson(plan: PortfolioPlan): string {
  return `${stringifyJsonSafely(plan, 2)}\n`;
}

async function printPlan(report: PortfolioReport, options: PortfolioCliOptions, io: CliIo): Promise<void> {
  if (options.json) {
    io.stdout(planJson(report.plan));
    return;
  }
  const { renderOrdersCsv, renderPortfolioTerminal } = await import('../../report/portfolio.js');
  if (options.csv) {
    io.stdout(renderOrdersCsv(report.plan));
    return;
  }
  io.stdout(renderPortfolioTerminal(report, { unicode: reportOptions(io).unicode }));
}

/** portfolio.json, report.md, report.html and weights.svg under $AUTOHEDGE_HOME/portfolios/<id>/ (unless --no-save), and in --out. */
async function savePlan(
  report: PortfolioReport,
  options: PortfolioCliOptions,
  home: string,
  io: CliIo,
  asOf: Date,
): Promise<void> {
  const json = planJson(report.plan);
  const directories = [
    ...(options.save ? [join(portfoliosDirectory(home), portfolioId(asOf, json))] : []),
    ...(options.out ? [resolve(io.cwd, options.out)] : []),
  ];
  if (directories.length === 0) return;
  const { renderPortfolioMarkdown } = await import('../../report/portfolio.js');
  const { renderPortfolioHtml, renderWeightsSvg } = await import('../../report/portfolio-html.js');
  const chart = renderWeightsSvg(report.plan);
  const files = {
    json,
    chart,
    markdown: renderPortfolioMarkdown(report, chart ? 'weights.svg' : null),
    html: renderPortfolioHtml(report),
  };
  for (const directory of directories) {
    try {
      await writePortfolioFiles(directory, files);
      if (!options.quiet) io.stderr(`autohedge: proposed portfolio written to ${sanitizeText(directory)}\n`);
    } catch (error) {
      io.stderr(`autohedge: warning: portfolio not written to ${sanitizeText(directory)}: ${errorMessage(error)}\n`);
    }
  }
}

/** `--runs <ids...>`: the run ids named; `--runs` with none is a usage error here. */
function runIdsOf(options: { runs?: boolean | string[] }): string[] {
  if (options.runs === true) throw new UsageError('--runs needs run ids (or unique prefixes): --runs <id> [id...]');
  return Array.isArray(options.runs) ? options.runs : [];
}
