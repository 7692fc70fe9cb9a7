import { blindSnapshot } from '../../market/blind.js';
import { CassetteError, ExitCode, UsageError } from '../../errors.js';
import { resolveAsOf } from '../../market/as-of.js';
import { calendarOf } from '../../market/calendar/index.js';
import { validateTicker } from '../../market/ticker.js';
import { demoCassettePath } from '../../paths.js';
import { sanitizeText, stringifyJsonSafely } from '../../sanitize.js';
import type { MarketData, MarketSnapshot } from '../../market/types.js';
import { renderPriceChart } from '../../report/chart.js';
import { demoBanner } from '../../report/format.js';
import type { CliDeps } from '../deps.js';
import { formatError } from '../exit.js';
import { colorEnabled, type CliIo, warningWriter } from '../io.js';
import { buildServices } from '../services.js';
import { redactingIo } from '../redact.js';

export interface MarketCommandOptions {
  json: boolean;
  refresh: boolean;
  /** `--as-of`: the snapshot as of a past close (context.asOf), nothing after it. */
  historical?: boolean;
  /** Synthetic demo data: labelled DEMO, with `source: "demo"` in the JSON. */
  demo?: boolean;
  /** `--blind`: the snapshot as a blind run's agents see it (docs/blind.md). */
  blind?: boolean;
}

export interface MarketCommandContext {
  market: MarketData;
  asOf: Date;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  color: boolean;
  isTTY: boolean;
  columns: number;
  /** Ctrl-C: abandons the fetch. */
  signal?: AbortSignal;
}

/** Charts wider than this stop being easier to read. */
const maximumChartWidth = 100;

/**
 * `autohedge market <ticker>`: wires options and services (record, replay, --demo)
 * to showSnapshot. A replay that cannot answer lists every request it missed, one
 * line each, rather than the first symptom.
 */
export async function marketCommand(
  rawTicker: string,
  options: Record<string, unknown>,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
): Promise<number> {
  const ticker = validateTicker(rawTicker);
  const record = typeof options.record === 'string' ? options.record : undefined;
  const demo = options.demo === true;
  const replay = demo ? demoCassettePath() : typeof options.replay === 'string' ? options.replay : undefined;
  if ([record, options.replay, demo || undefined].filter(Boolean).length > 1)
    throw new UsageError('--record, --replay and --demo cannot be combined');
  const asOfOption = options.asOf;
  if (asOfOption !== undefined && typeof asOfOption !== 'string')
    throw new UsageError('--as-of needs a date as YYYY-MM-DD');
  if (demo && asOfOption !== undefined)
    throw new UsageError('--demo replays a live run of its own day; it cannot be combined with --as-of');
  // Before any client exists: a day the ticker's exchange did not trade, or a future one, is the user's to fix.
  const historical =
    asOfOption !== undefined ? resolveAsOf(asOfOption, deps.now?.() ?? new Date(), calendarOf(ticker)) : null;
  const session = await buildServices(
    {
      env: io.env,
      cwd: io.cwd,
      record,
      replay,
      demo,
      refresh: Boolean(options.refresh),
      argv,
      needsModel: false,
      warn: warningWriter(io),
    },
    deps,
  );
  // Keys read from .env are known only now: what follows is scrubbed of them too.
  const out = redactingIo(io, session.secrets);
  try {
    if (demo) session.checkDemoTickers([ticker], 'market');
    await showSnapshot(
      ticker,
      {
        json: Boolean(options.json),
        refresh: Boolean(options.refresh),
        demo: session.demo,
        historical: historical !== null,
        blind: options.blind === true,
      },
      {
        market: session.market,
        asOf: historical?.close ?? session.asOf(),
        stdout: out.stdout,
        stderr: out.stderr,
        color: colorEnabled(io.env, io.stdoutIsTTY),
        isTTY: io.stdoutIsTTY,
        columns: io.columns,
        signal: io.signal,
      },
    );
    await session.finish(out);
    return ExitCode.ok;
  } catch (error) {
    const misses = session.replayMisses();
    if (misses.length === 0) throw error;
    for (const miss of misses) io.stderr(`${formatError(new CassetteError(miss), false)}\n`);
    return ExitCode.usage;
  } finally {
    await session.close();
  }
}

/**
 * The snapshot text exactly as the agents receive it, then a chart of the closes
 * (block characters and colour on a colour terminal, plain ASCII otherwise). With
 * --json, only the snapshot as pretty JSON. Demo data is labelled as such.
 */
export async function showSnapshot(
  ticker: string,
  options: MarketCommandOptions,
  context: MarketCommandContext,
): Promise<MarketSnapshot> {
  const symbol = validateTicker(ticker);
  const fetched = await context.market.snapshot(symbol, {
    asOf: context.asOf,
    refresh: options.refresh,
    signal: context.signal,
    historical: options.historical === true,
  });
  // The block stays as the agents saw it; the data's origin is named outside it.
  const labelled = options.demo ? { ...fetched, source: 'demo' } : fetched;
  const snapshot = options.blind ? blindSnapshot(labelled).snapshot : labelled;
  if (options.json) {
    context.stdout(`${stringifyJsonSafely(snapshot, 2)}\n`);
    return snapshot;
  }
  if (options.demo) context.stdout(`${context.isTTY ? demoBanner : demoBanner.replace(' — ', ' - ')}\n\n`);
  // Sanitised at entry already; a cached snapshot on disk may be older or hand-edited.
  context.stdout(`${sanitizeText(snapshot.text)}\n`);
  const fancy = context.isTTY && context.color;
  const width = Math.min(Math.max(context.columns || 80, 40), maximumChartWidth);
  const chart = renderPriceChart(snapshot.bars, { width, color: fancy, unicode: fancy });
  if (chart !== '')
    context.stdout(
      `\nDaily closes (${sanitizeText(snapshot.blind ? 'blind units' : (snapshot.identity.currency ?? 'listing currency'))}):\n${chart}`,
    );
  return snapshot;
}
