import { analyze, type AnalyzeDeps, type AnalyzeOptions } from './analyze.js';
import type { AnalysisResult } from './types.js';

export type TickerOutcome = { ticker: string; result: AnalysisResult; error?: undefined } | { ticker: string; result?: undefined; error: unknown };

/**
 * Several tickers, each a whole chain, at most `concurrency` at once. Outcomes come
 * back in the order the tickers were given; one ticker's error never stops the others.
 * Once `signal` aborts no further ticker starts: only those begun have an outcome.
 */
export async function analyzeMany(
  tickers: string[],
  concurrency: number,
  options: (ticker: string) => AnalyzeOptions,
  deps: (ticker: string) => AnalyzeDeps,
  signal?: AbortSignal,
): Promise<TickerOutcome[]> {
  const outcomes: Array<TickerOutcome | undefined> = new Array(tickers.length);
  let next = 0;
  const worker = async () => {
    while (next < tickers.length && !signal?.aborted) {
      const index = next;
      next += 1;
      const ticker = tickers[index] as string;
      try {
        outcomes[index] = { ticker, result: await analyze(ticker, options(ticker), deps(ticker)) };
      } catch (error) {
        outcomes[index] = { ticker, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, tickers.length)) }, worker));
  return outcomes.filter((outcome): outcome is TickerOutcome => outcome !== undefined);
}
