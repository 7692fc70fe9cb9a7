import { splitSummaries, type SplitSummary } from './run-kind.js';
import type { ContaminationLabel } from '../result/types.js';
import { attribute, attributionDefaults, type Attribution, type AttributionOptions } from './attribution.js';
import { distinctConfigurations } from './configurations.js';
import type { DecisionRow, Evaluation, HorizonResult } from './evaluate.js';
import { mean, median, seededRandom, shuffle, spearman, wilsonInterval, type Interval } from './statistics.js';

/**
 * The summary of an evaluation: per contamination label (never pooled) and horizon,
 * the desks' record and, on exactly the same decisions (same tickers, same dates),
 * three baselines that need no model — always BUY, the sign of 12-1 momentum, and a
 * seeded random shuffle of the desks' own BUY/SELL calls (the same mix). Baselines
 * enter at the same open and exit at the horizon's close (they set no levels).
 */

export type Strategy = 'desks' | 'always-buy' | 'momentum-12-1' | 'random';

export interface StrategyStats {
  strategy: Strategy;
  /** Positions scored. */
  count: number;
  /** Positions that made money (signed return > 0). */
  hits: number;
  hitRate: number | null;
  /** Wilson 95 % interval of the hit rate. */
  hitInterval: Interval | null;
  meanReturn: number | null;
  meanExcess: number | null;
  medianExcess: number | null;
  /** Desks only: Spearman between conviction and signed excess. */
  spearman: number | null;
}

/** The attribution fields (beta, alpha, regimes, costs, calibration, Sharpe) sit beside the counts: see attribution.ts. */
export interface GroupSummary extends Attribution {
  contamination: ContaminationLabel;
  horizon: number;
  /** Decisions in this group, HOLDs and unresolved ones included. */
  decisions: number;
  holds: number;
  /** HOLD is an abstention: what the stock did meanwhile, on average. */
  holdMeanReturn: number | null;
  /** Decisions whose horizon has not elapsed (not scored yet, even when a level already closed them). */
  pending: number;
  ambiguous: number;
  unfilled: number;
  rescaled: number;
  strategies: StrategyStats[];
}

export interface EvaluationSummary {
  seed: number;
  groups: GroupSummary[];
  /** By blind vs named and by --samples stability (src/evaluate/run-kind.ts); absent when no run was either. */
  splits?: SplitSummary[];
}

interface Scored {
  conviction: number | null;
  signedReturn: number;
  excess: number | null;
}

function statsOf(strategy: Strategy, scored: readonly Scored[]): StrategyStats {
  const hits = scored.filter((item) => item.signedReturn > 0).length;
  const excesses = scored.flatMap((item) => (item.excess === null ? [] : [item.excess]));
  const paired = scored.filter(
    (item): item is Scored & { excess: number; conviction: number } => item.excess !== null && item.conviction !== null,
  );
  return {
    strategy,
    count: scored.length,
    hits,
    hitRate: scored.length > 0 ? hits / scored.length : null,
    hitInterval: wilsonInterval(hits, scored.length),
    meanReturn: mean(scored.map((item) => item.signedReturn)),
    meanExcess: mean(excesses),
    medianExcess: median(excesses),
    spearman:
      strategy === 'desks'
        ? spearman(
            paired.map((item) => item.conviction),
            paired.map((item) => item.excess),
          )
        : null,
  };
}

/** A baseline's position on one decision's dates: entry at the same open, exit at the horizon's close. */
function baselineScore(direction: 'BUY' | 'SELL', outcome: HorizonResult): Scored | null {
  if (!outcome.buyAndHold) return null;
  const sign = direction === 'BUY' ? 1 : -1;
  const { stockReturn, benchmarkReturn } = outcome.buyAndHold;
  return {
    conviction: null,
    signedReturn: sign * stockReturn,
    excess: benchmarkReturn === null ? null : sign * (stockReturn - benchmarkReturn),
  };
}

const positionOutcomes = new Set(['target', 'stop', 'horizon']);

function groupSummary(
  contamination: ContaminationLabel,
  horizon: number,
  rows: readonly DecisionRow[],
  seed: number,
  attribution: AttributionOptions,
): GroupSummary {
  const at = rows.flatMap((row) => {
    const outcome = row.horizons.find((item) => item.horizon === horizon);
    return outcome ? [{ row, outcome }] : [];
  });
  // Only decisions whose horizon has elapsed are scored, even those a level closed earlier:
  // the baselines need the horizon's close, and every strategy must stand on the same rows.
  const elapsed = at.filter((item) => item.outcome.buyAndHold !== null);
  const count = (kind: string) => elapsed.filter((item) => item.outcome.outcome === kind).length;
  const positions = elapsed.filter((item) => item.row.action !== 'HOLD' && positionOutcomes.has(item.outcome.outcome));
  const desks = positions.map(({ row, outcome }) => ({
    conviction: row.conviction,
    signedReturn: outcome.signedReturn!,
    excess: outcome.excess,
  }));
  const always = positions.flatMap(({ outcome }) => baselineScore('BUY', outcome) ?? []);
  const momentum = positions.flatMap(({ row, outcome }) =>
    row.momentum ? (baselineScore(row.momentum, outcome) ?? []) : [],
  );
  const shuffled = shuffle(
    positions.map(({ row }) => row.action as 'BUY' | 'SELL'),
    seededRandom(seed),
  );
  const random = positions.flatMap(({ outcome }, index) => baselineScore(shuffled[index]!, outcome) ?? []);
  const holds = at.filter((item) => item.outcome.outcome === 'abstained');
  return {
    contamination,
    horizon,
    decisions: at.length,
    holds: at.filter((item) => item.row.action === 'HOLD').length,
    holdMeanReturn: mean(holds.map((item) => item.outcome.stockReturn!)),
    pending: at.length - elapsed.length,
    ambiguous: count('ambiguous'),
    unfilled: count('unfilled'),
    rescaled: at.filter((item) => item.row.rescaled !== null).length,
    strategies: [
      statsOf('desks', desks),
      statsOf('always-buy', always),
      statsOf('momentum-12-1', momentum),
      statsOf('random', random),
    ],
    ...attribute(positions, attribution),
  };
}

const labelOrder: ContaminationLabel[] = ['clean', 'unknown', 'contaminated'];

/** Attribution options beyond the seed; `trials` defaults to the distinct configurations among every evaluated run. */
export type SummaryOptions = Partial<Omit<AttributionOptions, 'seed'>>;

export function summarize(evaluation: Evaluation, seed: number, options: SummaryOptions = {}): EvaluationSummary {
  const trials =
    options.trials ?? distinctConfigurations(evaluation.decisions.map((row) => row.configuration ?? 'unrecorded'));
  const attribution: AttributionOptions = { ...attributionDefaults, ...options, seed, trials };
  const groups: GroupSummary[] = [];
  for (const label of labelOrder) {
    const rows = evaluation.decisions.filter((row) => row.contamination === label && row.problem === null);
    if (rows.length === 0) continue;
    for (const horizon of evaluation.horizons) groups.push(groupSummary(label, horizon, rows, seed, attribution));
  }
  const splits = splitSummaries(evaluation.decisions, evaluation.horizons);
  return { seed, groups, ...(splits.length > 0 ? { splits } : {}) };
}
