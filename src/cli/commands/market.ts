import { validateTicker } from '../../market/ticker.js';
import { sanitizeText, stringifyJsonSafely } from '../../sanitize.js';
import type { MarketData, MarketSnapshot } from '../../market/types.js';
import { renderPriceChart } from '../../report/chart.js';

export interface MarketCommandOptions {
  json: boolean;
  refresh: boolean;
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
 * `autohedge market <ticker>`: the snapshot text exactly as the agents receive it,
 * then a chart of the closes (block characters and colour on a colour terminal, plain
 * ASCII otherwise). With --json, only the snapshot as pretty JSON.
 */
export async function marketCommand(ticker: string, options: MarketCommandOptions, context: MarketCommandContext): Promise<MarketSnapshot> {
  const symbol = validateTicker(ticker);
  const snapshot = await context.market.snapshot(symbol, { asOf: context.asOf, refresh: options.refresh, signal: context.signal });
  if (options.json) {
    context.stdout(`${stringifyJsonSafely(snapshot, 2)}\n`);
    return snapshot;
  }
  // Sanitised at entry already; a cached snapshot on disk may be older or hand-edited.
  context.stdout(`${sanitizeText(snapshot.text)}\n`);
  const fancy = context.isTTY && context.color;
  const width = Math.min(Math.max(context.columns || 80, 40), maximumChartWidth);
  const chart = renderPriceChart(snapshot.bars, { width, color: fancy, unicode: fancy });
  if (chart !== '') context.stdout(`\nDaily closes (${sanitizeText(snapshot.identity.currency ?? 'listing currency')}):\n${chart}`);
  return snapshot;
}
