import { calibrationOf, type Calibration } from './calibration.js';
import { costSummary, type CostOptions, type CostSummary } from './costs.js';
import { defaultResamples, defaultSlippageBps, defaultSpreadBps } from './defaults.js';
import type { DecisionRow, HorizonResult } from './evaluate.js';
import { regimeBreakdown, type Regime, type RegimeStats } from './regimes.js';
import { bootstrapInterceptInterval, minimumRegressionSize, ols } from './regression.js';
import { deflatedSharpe, momentsOf, sharpeRatio } from './sharpe.js';

/**
 * The questions a skeptical quant asks of one group's scored positions (one
 * contamination label, one horizon): alpha after market beta (and the sector's, when
 * asked), the record by market regime, the return net of trading and model costs,
 * whether conviction is calibrated, and the Sharpe deflated for the configurations
 * tried. Every number is a pure function of the rows and the options.
 */

export interface AttributionOptions {
  /** Seeds the bootstrap (the same seed as the random baseline). */
  seed: number;
  /** Bootstrap resamples for the alpha interval. */
  resamples: number;
  costs: CostOptions;
  /** N for the Deflated Sharpe Ratio: distinct configurations evaluated, or --trials. */
  trials: number;
  /** Regress on the sector ETF too (`--sector-benchmarks`). */
  sectorBenchmarks: boolean;
}

/** Everything but the seed and the trials, as `evaluate` defaults them. */
export const attributionDefaults: Omit<AttributionOptions, 'seed' | 'trials'> = {
  resamples: defaultResamples,
  costs: { spreadBps: defaultSpreadBps, slippageBps: defaultSlippageBps, notional: null },
  sectorBenchmarks: false,
};

export interface Attribution {
  /** Positions regressed (those with the benchmark's return, and the sector's when asked, over the same dates). */
  n: number;
  /** "too few to regress" below 8 positions, or why no line could be fitted; null when the numbers stand. */
  regressionNote: string | null;
  beta: number | null;
  /** The regression's intercept: signed return per decision not explained by the benchmark. */
  alpha: number | null;
  /** 95 % seeded bootstrap interval of alpha, [low, high]. */
  alphaCI: [number, number] | null;
  /** The sector ETF's slope; present only with --sector-benchmarks. */
  sectorBeta?: number | null;
  regimes: Record<Regime, RegimeStats>;
  /** Positions whose regime could not be labelled (the benchmark's bars do not reach 63 sessions back). */
  regimesUnlabelled: number;
  costs: CostSummary;
  calibration: Calibration;
  /** Mean over standard deviation of the signed excess, per decision. */
  sharpe: number | null;
  skew: number | null;
  kurtosis: number | null;
  trials: number;
  /** The probability that the Sharpe is real after N trials (Bailey & López de Prado 2014). */
  deflatedSharpe: number | null;
}

export interface Position {
  row: DecisionRow;
  outcome: HorizonResult;
}

function regression(positions: readonly Position[], options: AttributionOptions) {
  const usable = positions.filter(
    ({ outcome }) =>
      outcome.benchmarkReturn !== null && (!options.sectorBenchmarks || typeof outcome.sectorReturn === 'number'),
  );
  const y = usable.map(({ outcome }) => outcome.signedReturn!);
  const regressors = [
    usable.map(({ outcome }) => outcome.benchmarkReturn!),
    ...(options.sectorBenchmarks ? [usable.map(({ outcome }) => outcome.sectorReturn!)] : []),
  ];
  const empty = { n: usable.length, beta: null, alpha: null, alphaCI: null };
  const sector = options.sectorBenchmarks ? { sectorBeta: null } : {};
  if (usable.length < minimumRegressionSize) return { ...empty, ...sector, regressionNote: 'too few to regress' };
  const fit = ols(y, regressors);
  if (fit === null)
    return {
      ...empty,
      ...sector,
      regressionNote: 'no line can be fitted (the benchmark moved the same for every decision)',
    };
  return {
    n: usable.length,
    regressionNote: null,
    beta: fit.slopes[0]!,
    alpha: fit.intercept,
    alphaCI: bootstrapInterceptInterval(y, regressors, { seed: options.seed, resamples: options.resamples }),
    ...(options.sectorBenchmarks ? { sectorBeta: fit.slopes[1]! } : {}),
  };
}

function sharpeOf(positions: readonly Position[], trials: number) {
  const excesses = positions.flatMap(({ outcome }) => (outcome.excess === null ? [] : [outcome.excess]));
  const moments = momentsOf(excesses);
  if (moments === null) return { sharpe: null, skew: null, kurtosis: null, trials, deflatedSharpe: null };
  const sharpe = sharpeRatio(moments);
  return {
    sharpe,
    skew: moments.skew,
    kurtosis: moments.kurtosis,
    trials,
    deflatedSharpe: deflatedSharpe({ sharpe, n: moments.n, skew: moments.skew, kurtosis: moments.kurtosis, trials }),
  };
}

/** Every attribution figure for one group's scored positions (HOLDs and unresolved outcomes are not positions). */
export function attribute(positions: readonly Position[], options: AttributionOptions): Attribution {
  const won = (position: Position) => position.outcome.signedReturn! > 0;
  return {
    ...regression(positions, options),
    regimes: regimeBreakdown(
      positions.map((position) => ({
        regime: position.row.regime ?? null,
        won: won(position),
        excess: position.outcome.excess,
      })),
    ),
    regimesUnlabelled: positions.filter(({ row }) => !row.regime).length,
    costs: costSummary(
      positions.map(({ row, outcome }) => ({ signedReturn: outcome.signedReturn!, modelUsd: row.modelUsd ?? null })),
      options.costs,
    ),
    calibration: calibrationOf(
      positions.map((position) => ({ conviction: position.row.conviction, won: won(position) })),
    ),
    ...sharpeOf(positions, options.trials),
  };
}
