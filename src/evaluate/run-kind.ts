import type { ContaminationLabel } from '../pipeline/contamination.js';
import { stabilityBucket } from '../pipeline/stability.js';
import type { AnalysisResult } from '../result/types.js';
import { mean, wilsonInterval, type Interval } from './statistics.js';

/**
 * `evaluate` split by how a decision was made: blind (`--blind`, the model did not know
 * the stock) against named, and by the stability of a sampled decision (`--samples`:
 * every sample agreeing, at least two in three, fewer). Contamination labels are still
 * never pooled; only decisions whose horizon has elapsed are scored, as in the summary.
 */

export type StabilityGroup = '1.0' | '>=0.67' | '<0.67';

export interface RunKind {
  blind: boolean;
  /** null for a decision made once (no --samples). */
  stability: StabilityGroup | null;
}

export function runKindOf(result: Pick<AnalysisResult, 'blind' | 'stability'>): RunKind {
  return {
    blind: result.blind !== undefined,
    stability: result.stability ? stabilityBucket(result.stability.agreement) : null,
  };
}

export interface SplitRow extends Partial<RunKind> {
  contamination: ContaminationLabel;
  action: 'BUY' | 'SELL' | 'HOLD';
  problem: string | null;
  horizons: Array<{
    horizon: number;
    outcome: string;
    signedReturn: number | null;
    excess: number | null;
    buyAndHold: unknown;
  }>;
}

export interface SplitSummary {
  split: 'blind' | 'stability';
  /** `blind` / `named`, or the stability group. */
  group: string;
  contamination: ContaminationLabel;
  horizon: number;
  /** BUY and SELL positions scored. */
  positions: number;
  hits: number;
  hitRate: number | null;
  hitInterval: Interval | null;
  meanExcess: number | null;
}

const scoredOutcomes = new Set(['target', 'stop', 'horizon']);

/** The splits, present only when some decision was blind or sampled (a plain evaluation is unchanged). */
export function splitSummaries(rows: readonly SplitRow[], horizons: readonly number[]): SplitSummary[] {
  const usable = rows.filter((row) => row.problem === null);
  const splits: SplitSummary[] = [];
  if (usable.some((row) => row.blind)) {
    for (const group of ['named', 'blind'] as const)
      splits.push(
        ...summariesOf(
          'blind',
          group,
          usable.filter((row) => (row.blind ? 'blind' : 'named') === group),
          horizons,
        ),
      );
  }
  if (usable.some((row) => row.stability != null)) {
    for (const group of ['1.0', '>=0.67', '<0.67'] as const)
      splits.push(
        ...summariesOf(
          'stability',
          group,
          usable.filter((row) => row.stability === group),
          horizons,
        ),
      );
  }
  return splits;
}

function summariesOf(
  split: SplitSummary['split'],
  group: string,
  rows: readonly SplitRow[],
  horizons: readonly number[],
): SplitSummary[] {
  const labels = [...new Set(rows.map((row) => row.contamination))].sort();
  return labels.flatMap((contamination) =>
    horizons.map((horizon) => {
      const outcomes = rows
        .filter((row) => row.contamination === contamination && row.action !== 'HOLD')
        .flatMap((row) => row.horizons.filter((item) => item.horizon === horizon))
        .filter((item) => item.buyAndHold !== null && scoredOutcomes.has(item.outcome) && item.signedReturn !== null);
      const hits = outcomes.filter((item) => item.signedReturn! > 0).length;
      return {
        split,
        group,
        contamination,
        horizon,
        positions: outcomes.length,
        hits,
        hitRate: outcomes.length > 0 ? hits / outcomes.length : null,
        hitInterval: wilsonInterval(hits, outcomes.length),
        meanExcess: mean(outcomes.flatMap((item) => (item.excess === null ? [] : [item.excess]))),
      };
    }),
  );
}

/** The splits as text lines for the evaluation report (empty when there are none). */
export function splitLines(splits: readonly SplitSummary[]): string[] {
  if (splits.length === 0) return [];
  const percent = (value: number | null) => (value === null ? 'n/a' : `${(value * 100).toFixed(1)} %`);
  const lines = [
    'By run kind (desks only; blind = the model did not know the stock; stability = --samples agreement):',
  ];
  for (const split of splits) {
    const interval = split.hitInterval
      ? ` [${percent(split.hitInterval.low)}, ${percent(split.hitInterval.high)}]`
      : '';
    lines.push(
      `  ${split.split} ${split.group} · ${split.contamination} · ${split.horizon} sessions: ${split.positions} position(s), hit rate ${percent(split.hitRate)}${interval}, mean excess ${percent(split.meanExcess)}`,
    );
  }
  return [...lines, ''];
}
