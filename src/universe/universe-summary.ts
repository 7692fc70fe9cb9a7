import type { AnalysisResult, Decision, RunStatus } from '../result/types.js';

/** One ranked name: what the summary table shows. */
export interface RankedName {
  ticker: string;
  action: Decision['action'];
  conviction: number;
  status: RunStatus;
}

export interface UniverseSummary {
  /** Tickers with an outcome (a result or an error); interrupted runs are not among them. */
  analysed: number;
  /** Keyed by run status, plus 'error' (no result) and 'skipped' (--resume). */
  byStatus: Record<string, number>;
  /** Tickers whose run made a decision: the ranked ones. */
  decided: number;
  /** Strongest BUYs first. */
  top: RankedName[];
  /** Strongest SELLs first. */
  bottom: RankedName[];
  /** Sum of the priced runs; `unpricedRuns` counts those whose cost is unknown. */
  costUsd: number;
  unpricedRuns: number;
  /** The agents' prompt tokens over every run, and those the provider's cache served. */
  promptTokens: number;
  cachedPromptTokens: number;
  /** What the cache saved, over the priced runs. */
  cacheSavedUsd: number;
}

/** BUY 80 ranks above BUY 60 above HOLD above SELL 60 above SELL 80. */
export function rankScore(name: Pick<RankedName, 'action' | 'conviction'>): number {
  if (name.action === 'BUY') return name.conviction;
  if (name.action === 'SELL') return -name.conviction;
  return 0;
}

/**
 * The running tally of a universe: counters and the few names at each end of the
 * ranking, never the results themselves, so it stays the same size for 10 or 10,000
 * tickers.
 */
export class UniverseTally {
  private readonly summary: UniverseSummary = {
    analysed: 0,
    byStatus: {},
    decided: 0,
    top: [],
    bottom: [],
    costUsd: 0,
    unpricedRuns: 0,
    promptTokens: 0,
    cachedPromptTokens: 0,
    cacheSavedUsd: 0,
  };

  constructor(private readonly shown = 5) {}

  addResult(result: AnalysisResult): void {
    this.count(result.status);
    if (result.usage.costUsd === null) this.summary.unpricedRuns += 1;
    else this.summary.costUsd += result.usage.costUsd;
    this.summary.promptTokens += result.usage.promptTokens;
    this.summary.cachedPromptTokens += result.usage.cachedPromptTokens;
    this.summary.cacheSavedUsd += result.usage.cacheSavedUsd ?? 0;
    if (!result.decision) return;
    this.summary.decided += 1;
    const name: RankedName = {
      ticker: result.ticker,
      action: result.decision.action,
      conviction: result.decision.conviction,
      status: result.status,
    };
    this.summary.top = keepBest([...this.summary.top, name], (a, b) => rankScore(b) - rankScore(a), this.shown);
    this.summary.bottom = keepBest([...this.summary.bottom, name], (a, b) => rankScore(a) - rankScore(b), this.shown);
  }

  /** A ticker that ended with an error instead of a result (an unknown symbol). */
  addError(): void {
    this.count('error');
  }

  /** A ticker left out because it already has a finished run (--resume). */
  addSkipped(): void {
    this.summary.byStatus.skipped = (this.summary.byStatus.skipped ?? 0) + 1;
  }

  result(): UniverseSummary {
    return structuredClone(this.summary);
  }

  private count(key: RunStatus | 'error'): void {
    // An interrupted run was not analysed: it is counted on its own, for --resume to finish.
    if (key !== 'interrupted') this.summary.analysed += 1;
    this.summary.byStatus[key] = (this.summary.byStatus[key] ?? 0) + 1;
  }
}

/** Sorted, ties by ticker so the table is the same however the analyses interleaved. */
function keepBest(names: RankedName[], order: (a: RankedName, b: RankedName) => number, count: number): RankedName[] {
  return names.sort((a, b) => order(a, b) || a.ticker.localeCompare(b.ticker)).slice(0, count);
}
