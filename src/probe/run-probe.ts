import { analyze, type AnalyzeDeps, type AnalyzeOptions } from '../pipeline/analyze.js';
import type { AnalysisResult } from '../result/types.js';
import type { MarketData, MarketSnapshot, SnapshotOptions } from '../market/types.js';
import { compareProbe, type ProbeComparison } from './compare.js';

/**
 * One market fetch for both runs of a probe: the second snapshot of the same ticker is
 * the first one's answer, so the named and the blind run read exactly the same data.
 */
export function sharedMarket(market: MarketData): MarketData {
  const snapshots = new Map<string, Promise<MarketSnapshot>>();
  return {
    ...market,
    snapshot(ticker: string, options: SnapshotOptions) {
      const key = ticker.trim().toUpperCase();
      let snapshot = snapshots.get(key);
      if (!snapshot) {
        snapshot = market.snapshot(ticker, options);
        snapshots.set(key, snapshot);
        // A failed fetch is not kept: it would fail the blind run for the named run's reason.
        snapshot.catch(() => snapshots.delete(key));
      }
      return snapshot;
    },
  };
}

export interface ProbeOutcome {
  named: AnalysisResult;
  blind: AnalysisResult;
  comparison: ProbeComparison;
}

/**
 * The named run, then the blind one, of the same ticker and clock, over one market
 * fetch. `depsFor` gives each its own deps (events, transcript) around the shared market.
 */
export async function runProbe(
  ticker: string,
  options: Omit<AnalyzeOptions, 'blind'>,
  depsFor: (kind: 'named' | 'blind', market: MarketData) => AnalyzeDeps,
  market: MarketData,
): Promise<ProbeOutcome> {
  const shared = sharedMarket(market);
  const asOf = options.asOf ?? new Date();
  const named = await analyze(ticker, { ...options, asOf }, depsFor('named', shared));
  const blind = await analyze(ticker, { ...options, asOf, blind: true }, depsFor('blind', shared));
  return { named, blind, comparison: compareProbe(named, blind) };
}
