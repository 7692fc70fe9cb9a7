import type { Attribution } from '../evaluate/attribution.js';
import type { RegimeStats } from '../evaluate/regimes.js';
import { minimumRegressionSize } from '../evaluate/regression.js';
import { formatCost, formatFraction, formatNumber, formatSigned } from './format.js';

/**
 * The attribution of one evaluation group in plain words, the lines an evaluation
 * opens with: did the desks beat the market after beta, in which regime, after every
 * cost including the model's, is conviction calibrated, does the Sharpe survive the
 * configurations tried. Pure: the same numbers always read the same.
 */

const percent = (value: number | null) => formatFraction(value, { digits: 2, signed: true });
const rate = (value: number | null) => formatFraction(value, { digits: 0 });
/** Whole dollars, but cents below $100, so a break-even of $0.26 does not read "$0". */
const dollars = (value: number) => `$${formatNumber(value, Math.abs(value) < 100 ? 2 : 0)}`;

function leverage(beta: number): string {
  const size = `${formatNumber(Math.abs(beta), 1)}×`;
  return beta >= 0 ? `holding the market at ${size} leverage` : `shorting the market at ${size}`;
}

export function alphaLine(group: Attribution, benchmark: string): string {
  if (group.regressionNote !== null || group.alpha === null || group.beta === null)
    return `alpha after beta: ${group.regressionNote ?? 'not available'} (${group.n} scored position(s) with ${benchmark}'s return${group.n < minimumRegressionSize ? `; ${minimumRegressionSize} needed` : ''})`;
  const interval = group.alphaCI;
  const range = interval ? ` (95 %: ${percent(interval[0])} … ${percent(interval[1])})` : '';
  const verdict =
    interval === null
      ? ''
      : interval[0] > 0
        ? ` — an edge beyond ${leverage(group.beta)}`
        : interval[1] < 0
          ? ` — worse than ${leverage(group.beta)}`
          : ` — indistinguishable from ${leverage(group.beta)}`;
  const sector =
    group.sectorBeta === undefined
      ? ''
      : `, sector beta ${group.sectorBeta === null ? 'n/a' : formatNumber(group.sectorBeta, 2)}`;
  return `alpha after beta: ${percent(group.alpha)} per decision${range}, beta ${formatNumber(group.beta, 2)} against ${benchmark}${sector}${verdict} (n ${group.n})`;
}

function regimeCell(name: string, stats: RegimeStats): string {
  if (stats.n === 0) return `${name} 0`;
  const interval = stats.hitRateCI ? ` (${rate(stats.hitRateCI[0])}–${rate(stats.hitRateCI[1])})` : '';
  return `${name} ${stats.n}: hit ${rate(stats.hitRate)}${interval}, mean excess ${percent(stats.meanExcess)}`;
}

export function regimeLine(group: Attribution, benchmark: string): string {
  const { up, flat, down } = group.regimes;
  const unlabelled =
    group.regimesUnlabelled > 0 ? `; ${group.regimesUnlabelled} unlabelled (too little ${benchmark} history)` : '';
  return `by regime (${benchmark}'s 63-session trend, ±5 %): ${regimeCell('up', up)}; ${regimeCell('flat', flat)}; ${regimeCell('down', down)}${unlabelled}`;
}

export function costLine(group: Attribution): string {
  const costs = group.costs;
  if (costs.meanNetReturn === null) return 'after costs: nothing scored';
  const trading = `after costs (${costs.spreadBps} bps spread + ${costs.slippageBps} bps slippage, on entry and on exit): ${percent(costs.meanNetReturn)} per decision`;
  const unknown = costs.modelUsdUnknown > 0 ? ` (${costs.modelUsdUnknown} run(s) with an unknown price left out)` : '';
  const bill =
    costs.meanModelUsd === null
      ? 'model bill unknown'
      : `model bill ${formatCost(costs.meanModelUsd)} per decision${unknown}`;
  const atNotional =
    costs.notional === null
      ? ''
      : `; at ${dollars(costs.notional)} a position, ${percent(costs.meanNetReturnAfterModel)} after the model`;
  const breakEven =
    costs.breakEvenNotional !== null
      ? `; the model pays for itself from ${dollars(costs.breakEvenNotional)} a position`
      : costs.meanModelUsd === null
        ? ''
        : '; no position size pays for the model (no edge after trading costs)';
  return `${trading}; ${bill}${atNotional}${breakEven}`;
}

export function calibrationLine(group: Attribution): string {
  const { brier, buckets } = group.calibration;
  if (brier === null) return 'conviction: nothing scored to calibrate';
  const cells = buckets
    .filter((bucket) => bucket.n > 0)
    .map((bucket) => `${bucket.from}–${bucket.to}: ${bucket.n} at ${rate(bucket.hitRate)}`);
  return `conviction against outcomes: Brier ${formatNumber(brier, 3)} (0.250 is a constant 50, lower is better) — ${cells.join('; ')}`;
}

export function sharpeLine(group: Attribution): string {
  if (group.sharpe === null) return 'Sharpe: not available (fewer than two excess returns, or all the same)';
  const deflated =
    group.deflatedSharpe === null
      ? 'not defined for this sample'
      : `${rate(group.deflatedSharpe)} probability it is real`;
  return `Sharpe ${formatSigned(group.sharpe, 2)} per decision (skew ${formatSigned(group.skew, 2)}, kurtosis ${formatNumber(group.kurtosis, 2)}); deflated for ${group.trials} configuration(s) tried: ${deflated}`;
}

/** The five lines, in the order a skeptic asks. */
export function attributionLines(group: Attribution, benchmark: string): string[] {
  return [
    alphaLine(group, benchmark),
    regimeLine(group, benchmark),
    costLine(group),
    calibrationLine(group),
    sharpeLine(group),
  ];
}
