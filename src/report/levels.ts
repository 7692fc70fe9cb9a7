import type { MarketSnapshot } from '../market/types.js';
import type { AnalysisResult, Decision } from '../result/types.js';
import {
  formatFraction,
  formatNumber,
  formatPercent,
  formatPrice,
  formatSigned,
  notAvailable,
  type Maybe,
} from './format.js';

/**
 * The tables report.md and report.html share: the decision's levels (entry, stop,
 * target, reward/risk, each distance also in ATRs) and the key indicators. Cells are
 * display strings; n/a where a number is missing, never zero.
 */

export interface LevelRow {
  level: string;
  price: string;
  /** Measured from: the last close for the entry, the entry for stop and target. */
  from: string;
  distance: string;
  percent: string;
  atr: string;
}

function isNumber(value: Maybe<number>): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The price a decision starts from: its entry, else the last price. */
function startingPrice(decision: Decision, market: MarketSnapshot | null): number | null {
  if (isNumber(decision.entry)) return decision.entry;
  const last = market?.quote?.price ?? market?.indicators?.lastClose;
  return isNumber(last) ? last : null;
}

function row(
  level: string,
  price: Maybe<number>,
  reference: Maybe<number>,
  from: string,
  atr: Maybe<number>,
): LevelRow {
  if (!isNumber(price) || !isNumber(reference)) {
    return { level, price: formatPrice(price), from, distance: notAvailable, percent: notAvailable, atr: notAvailable };
  }
  const distance = price - reference;
  return {
    level,
    price: formatPrice(price),
    from,
    distance: formatSigned(distance),
    percent: reference === 0 ? notAvailable : formatPercent((distance / reference) * 100, { digits: 2, signed: true }),
    atr: isNumber(atr) && atr > 0 ? `${formatSigned(distance / atr, 2)} ATR` : notAvailable,
  };
}

export function levelRows(decision: Decision, market: MarketSnapshot | null): LevelRow[] {
  const atr = market?.indicators?.atr14;
  const last = market?.quote?.price ?? market?.indicators?.lastClose;
  const start = startingPrice(decision, market);
  const startName = isNumber(decision.entry) ? 'entry' : 'last price';
  return [
    row('Entry', decision.entry, last, 'last price', atr),
    row('Stop loss', decision.stopLoss, start, startName, atr),
    row('Take profit', decision.takeProfit, start, startName, atr),
  ];
}

/**
 * Reward ÷ risk from the starting price: (target − entry) ÷ (entry − stop) for a
 * BUY, mirrored for a SELL. null when a level is missing or the stop is on the
 * wrong side (no risk to divide by).
 */
export function rewardToRisk(decision: Decision, market: MarketSnapshot | null): number | null {
  const start = startingPrice(decision, market);
  const { stopLoss, takeProfit } = decision;
  if (!isNumber(start) || !isNumber(stopLoss) || !isNumber(takeProfit) || decision.action === 'HOLD') return null;
  const direction = decision.action === 'SELL' ? -1 : 1;
  const reward = (takeProfit - start) * direction;
  const risk = (start - stopLoss) * direction;
  return risk > 0 ? reward / risk : null;
}

export function formatRewardToRisk(decision: Decision, market: MarketSnapshot | null): string {
  const ratio = rewardToRisk(decision, market);
  return ratio === null ? notAvailable : formatNumber(ratio, 2);
}

/** Label and value of each key indicator, in reading order. */
export function keyIndicatorRows(market: MarketSnapshot): Array<[string, string]> {
  const indicators = market.indicators ?? ({} as MarketSnapshot['indicators']);
  const returns = indicators.returns ?? ({} as MarketSnapshot['indicators']['returns']);
  const vsAverage = (average: Maybe<number>, distance: Maybe<number>) =>
    isNumber(average)
      ? `${formatPrice(average)} (close ${formatFraction(distance, { digits: 2, signed: true })})`
      : notAvailable;
  return [
    ['Last close', `${formatPrice(indicators.lastClose)}${indicators.asOfBar ? ` (${indicators.asOfBar})` : ''}`],
    ['SMA 20', vsAverage(indicators.sma20, indicators.distanceFromSma20)],
    ['SMA 50', vsAverage(indicators.sma50, indicators.distanceFromSma50)],
    ['SMA 200', vsAverage(indicators.sma200, indicators.distanceFromSma200)],
    ['RSI (14)', formatNumber(indicators.rsi14, 1)],
    ['ATR (14)', formatPrice(indicators.atr14)],
    [
      'Volatility 20d / 1y (annualised)',
      `${formatFraction(indicators.volatility20d)} / ${formatFraction(indicators.volatility1y)}`,
    ],
    ['Max drawdown (1y)', formatFraction(indicators.maxDrawdown1y, { digits: 2 })],
    [
      'Support / resistance (20 sessions)',
      `${formatPrice(indicators.support)} / ${formatPrice(indicators.resistance)}`,
    ],
    ['52-week low / high', `${formatPrice(indicators.low52w)} / ${formatPrice(indicators.high52w)}`],
    [
      'Returns 1w / 1m / 3m / 1y',
      [returns.w1, returns.m1, returns.m3, returns.y1]
        .map((value) => formatFraction(value, { digits: 2, signed: true }))
        .join(' / '),
    ],
    ['Volume 20d ÷ 1y average', formatNumber(indicators.volumeRatio, 2)],
  ];
}

/** The saved options of a run as one line ("autohedge 0.2.0 · models … · max position 10%"), or null for an older run. */
export function runSettingsLine(result: AnalysisResult): string | null {
  const options = result.options;
  if (!options) return null;
  const { limits } = options;
  const models = Object.entries(options.models)
    .map(([agent, model]) => `${agent} ${model}`)
    .join(', ');
  return [
    result.autohedgeVersion ? `autohedge ${result.autohedgeVersion}` : null,
    `models: ${models}`,
    `server ${options.baseUrlHost}`,
    `search ${options.search}`,
    `max position ${formatNumber(limits.maxPositionPct, 1)}%`,
    // Absent in runs saved before they were recorded.
    typeof limits.maxRiskPct === 'number' ? `max risk ${formatNumber(limits.maxRiskPct, 1)}%` : null,
    typeof limits.minRewardRisk === 'number' ? `min reward/risk ${formatNumber(limits.minRewardRisk, 2)}` : null,
    options.maxCostUsd === null ? 'no cost cap' : `max cost $${formatNumber(options.maxCostUsd, 2)}`,
  ]
    .filter((part): part is string => part !== null)
    .join(' · ');
}
