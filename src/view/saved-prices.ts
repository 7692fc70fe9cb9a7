import { DataError } from '../errors.js';
import { defaultBenchmark, defaultHorizons, defaultSeed } from '../evaluate/defaults.js';
import { evaluationDocument } from '../evaluate/document.js';
import { evaluateRuns, type PriceSource } from '../evaluate/evaluate.js';
import { forwardSelection } from '../evaluate/forward-selection.js';
import { selectRuns } from '../evaluate/select.js';
import { summarize } from '../evaluate/summary.js';
import type { Bar } from '../market/types.js';
import type { EvaluationDocument } from '../report/evaluation-page.js';
import type { AnalysisResult } from '../result/types.js';
import { readSavedRuns } from '../store/index.js';

/**
 * The track record computed on request without a network: the prices are the daily bars
 * the saved runs themselves hold (each run keeps a year of bars up to its day, so a later
 * run of a ticker holds the outcome of an earlier one). The benchmark is scored only if
 * some saved run analysed it. Nothing is fetched and nothing is written.
 */

export function savedPriceSource(results: readonly AnalysisResult[]): PriceSource {
  const byTicker = new Map<string, Map<string, Bar>>();
  // Oldest run first, so a newer run's bar of the same day (a revision) wins.
  const ordered = [...results].sort((left, right) => (left.asOf < right.asOf ? -1 : left.asOf > right.asOf ? 1 : 0));
  for (const result of ordered) {
    const ticker = result.ticker.toUpperCase();
    const bars = byTicker.get(ticker) ?? new Map<string, Bar>();
    for (const bar of result.market?.bars ?? []) bars.set(bar.date, bar);
    byTicker.set(ticker, bars);
  }
  return {
    bars(ticker, span) {
      const bars = [...(byTicker.get(ticker.toUpperCase())?.values() ?? [])]
        .filter((bar) => bar.date >= span.from && bar.date <= span.to)
        .sort((left, right) => (left.date < right.date ? -1 : 1));
      if (bars.length === 0)
        return Promise.reject(new DataError(`no saved prices for ${ticker} (no saved run of it covers those days)`));
      return Promise.resolve(bars);
    },
  };
}

/** Every saved real decision scored at the default horizons against the saved prices, as the evaluation's JSON. */
export async function evaluateFromSavedPrices(home: string, now: Date): Promise<EvaluationDocument> {
  const selection = await selectRuns(home, { runIds: [], includeDemo: false });
  // Prices from every readable real run, with a decision or not; never a demo run's synthetic bars.
  const saved = (await readSavedRuns(home)).flatMap((entry) =>
    entry.state === 'ok' && !entry.result.demo ? [entry.result] : [],
  );
  const prices = savedPriceSource(saved);
  const evaluation = await evaluateRuns(
    selection.results,
    { horizons: [...defaultHorizons], benchmark: defaultBenchmark, now },
    prices,
  );
  const forward = await forwardSelection(home, selection.results, false);
  return evaluationDocument({
    evaluation,
    summary: summarize(evaluation, defaultSeed),
    skipped: selection.skipped,
    forward: { ...forward.summary, total: selection.results.length },
  });
}
