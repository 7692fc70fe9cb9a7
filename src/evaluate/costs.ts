import { mean } from './statistics.js';

/**
 * What the decisions earn after trading and model costs.
 *
 * - Trading: the spread and the slippage are each charged on entry and on exit, so a
 *   round trip costs 2 × (spread + slippage) basis points of the position (a deliberately
 *   unflattering reading: the spread is taken whole on each side).
 * - Model: each decision's own run bill (model tokens and search fees, as the run
 *   recorded them). A run whose price was unknown is counted apart (`modelUsdUnknown`) and
 *   left out of both model means, never taken as free.
 * - With a notional (the position's dollar size), the model bill as a return is
 *   bill / notional, so the net return after it is net − bill / notional.
 * - Break-even notional: the position size at which the mean net edge pays the mean
 *   bill, meanModelUsd / meanNetReturn; none when the edge after trading costs is ≤ 0
 *   (no position size pays for the model then).
 */

export interface CostOptions {
  spreadBps: number;
  slippageBps: number;
  /** The position's size in dollars, for the net return after the model's bill. */
  notional: number | null;
}

export interface CostInput {
  signedReturn: number;
  /** The run's recorded bill; null when a price was unknown. */
  modelUsd: number | null;
}

export interface CostSummary {
  spreadBps: number;
  slippageBps: number;
  notional: number | null;
  meanModelUsd: number | null;
  /** Decisions whose run bill is not known (left out of meanModelUsd). */
  modelUsdUnknown: number;
  /** Mean signed return after the round trip's spread and slippage. */
  meanNetReturn: number | null;
  /** … and after each decision's model bill over the notional; null without --notional. */
  meanNetReturnAfterModel: number | null;
  /** The notional at which the mean net edge pays the mean model bill; null when the net edge is ≤ 0. */
  breakEvenNotional: number | null;
}

export function roundTripCost(options: Pick<CostOptions, 'spreadBps' | 'slippageBps'>): number {
  return (2 * (options.spreadBps + options.slippageBps)) / 10_000;
}

export function costSummary(items: readonly CostInput[], options: CostOptions): CostSummary {
  const tradingCost = roundTripCost(options);
  const net = items.map((item) => item.signedReturn - tradingCost);
  const bills = items.flatMap((item) => (item.modelUsd === null ? [] : [item.modelUsd]));
  const meanNetReturn = mean(net);
  const meanModelUsd = mean(bills);
  const notional = options.notional;
  // A decision whose bill is unknown is left out here rather than counted as free.
  const afterModel =
    notional === null
      ? []
      : items.flatMap((item, index) => (item.modelUsd === null ? [] : [net[index]! - item.modelUsd / notional]));
  return {
    spreadBps: options.spreadBps,
    slippageBps: options.slippageBps,
    notional,
    meanModelUsd,
    modelUsdUnknown: items.length - bills.length,
    meanNetReturn,
    meanNetReturnAfterModel: mean(afterModel),
    breakEvenNotional:
      meanNetReturn !== null && meanNetReturn > 0 && meanModelUsd !== null ? meanModelUsd / meanNetReturn : null,
  };
}
