import { seededRandom, shuffle } from '../random.js';
import type { Action, LevelSpread, Stability } from '../result/stability.js';
import type { Decision, GuardrailFinding } from '../result/types.js';

/**
 * `--samples k`: the Director decides k times on the same desk reports, and the run
 * keeps what holds still. Pure functions of the samples' decisions, in sample order.
 */

export type { Stability } from '../result/stability.js';

/** Two of three agreeing passes. */
export const defaultMinAgreement = 0.6;

const actions: readonly Action[] = ['BUY', 'SELL', 'HOLD'];
const levelFields = ['positionSizePct', 'entry', 'stopLoss', 'takeProfit'] as const;
const tolerance = 1e-9;

/**
 * The decision the samples agree on: the modal action (a tie goes to the action the
 * earlier sample gave), with the median of each level, size and conviction over that
 * action's samples; its words (rationale, horizon, order type, risks) are those of the
 * modal sample nearest the medians. Null when no sample decided.
 */
export function consensusOf(
  samples: ReadonlyArray<Decision | null>,
): { decision: Decision; stability: Stability } | null {
  const decided = samples.filter((sample): sample is Decision => sample !== null);
  if (decided.length === 0) return null;
  const counts = Object.fromEntries(actions.map((action) => [action, 0])) as Record<Action, number>;
  for (const sample of decided) counts[sample.action] += 1;
  const modal = decided.reduce(
    (best, sample) => (counts[sample.action] > counts[best] ? sample.action : best),
    decided[0]!.action,
  );
  const agreeing = decided.filter((sample) => sample.action === modal);
  const medians = {
    positionSizePct: median(agreeing.map((sample) => sample.positionSizePct)),
    entry: median(agreeing.map((sample) => sample.entry)),
    stopLoss: median(agreeing.map((sample) => sample.stopLoss)),
    takeProfit: median(agreeing.map((sample) => sample.takeProfit)),
    conviction: median(agreeing.map((sample) => sample.conviction)),
  };
  const words = nearest(agreeing, medians);
  const decision: Decision = {
    ...words,
    conviction: medians.conviction ?? words.conviction,
    positionSizePct: medians.positionSizePct ?? words.positionSizePct,
    entry: medians.entry,
    stopLoss: medians.stopLoss,
    takeProfit: medians.takeProfit,
  };
  const spread = Object.fromEntries(
    levelFields.map((field) => [field, range(agreeing.map((sample) => sample[field]))]),
  ) as unknown as LevelSpread;
  return {
    decision,
    stability: {
      k: samples.length,
      agreement: counts[modal] / samples.length,
      actions: counts,
      spread,
      failed: samples.length - decided.length,
    },
  };
}

/** The finding that flags a call the samples do not agree on: an error, so the run is flagged, never a silent HOLD. */
export function stabilityFindings(stability: Stability, minAgreement: number): GuardrailFinding[] {
  if (stability.agreement + tolerance >= minAgreement) return [];
  const counts = actions.map((action) => `${action} ${stability.actions[action]}`).join(', ');
  const failed = stability.failed > 0 ? `, ${stability.failed} without a decision` : '';
  return [
    {
      rule: 'unstable-decision',
      severity: 'error',
      message: `the Director's ${stability.k} samples${madeOf(stability)} agree ${percent(stability.agreement)} on one action (${counts}${failed}), below the ${percent(minAgreement)} --min-agreement: the call moves when it is asked again`,
    },
  ];
}

/** The stability bucket `evaluate` groups by: all agree, at least two in three, fewer. */
export function stabilityBucket(agreement: number): '1.0' | '>=0.67' | '<0.67' {
  if (agreement >= 1 - tolerance) return '1.0';
  return agreement + 0.005 >= 2 / 3 ? '>=0.67' : '<0.67';
}

export function median(values: ReadonlyArray<number | null>): number | null {
  const sorted = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function range(values: ReadonlyArray<number | null>): number | null {
  const present = values.filter((value): value is number => value !== null);
  return present.length === 0 ? null : Math.max(...present) - Math.min(...present);
}

/** The sample whose levels sit nearest the medians (relative distance), the earliest on a tie. */
function nearest(samples: readonly Decision[], medians: Record<string, number | null>): Decision {
  const distance = (sample: Decision) =>
    levelFields.reduce((sum, field) => {
      const value = sample[field];
      const middle = medians[field];
      if (value === null || middle === null || middle === undefined) return sum;
      return sum + Math.abs(value - middle) / Math.max(Math.abs(middle), 1);
    }, 0);
  return samples.reduce((best, sample) => (distance(sample) < distance(best) - tolerance ? sample : best));
}

function percent(value: number): string {
  return `${Math.round(value * 100)} %`;
}

/** A seeded shuffle (mulberry32, Fisher–Yates): sample n sees the reports in the same order on every replay. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  return shuffle(items, seededRandom(seed));
}

/**
 * The order each sample reads the reports in: the first as given (so `--samples 1` and the
 * first sample send today's request), each later one a seeded shuffle not used before
 * while the reports have orders left.
 */
export function sampleOrders<T>(items: readonly T[], k: number): T[][] {
  const orders: T[][] = [[...items]];
  const seen = new Set([orderKey(items, items)]);
  for (let sample = 2; sample <= k; sample += 1) {
    let order = seededShuffle(items, sample);
    for (let attempt = 1; attempt < 64 && seen.has(orderKey(order, items)); attempt += 1) {
      order = seededShuffle(items, sample + attempt * 7_919);
    }
    seen.add(orderKey(order, items));
    orders.push(order);
  }
  return orders;
}

function orderKey<T>(order: readonly T[], items: readonly T[]): string {
  return order.map((item) => items.indexOf(item)).join(',');
}

/** " (of 3 asked; the --max-cost cap stopped the rest)" when the cap made fewer samples than asked. */
export function madeOf(stability: Stability): string {
  return stability.asked !== undefined && stability.asked > stability.k
    ? ` (of ${stability.asked} asked; the --max-cost cap stopped the rest)`
    : '';
}
