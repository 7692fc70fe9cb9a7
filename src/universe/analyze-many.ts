import { analyze, type AnalyzeDeps, type AnalyzeOptions } from '../pipeline/analyze.js';
import type { AnalysisResult } from '../result/types.js';

export type TickerOutcome =
  | { ticker: string; result: AnalysisResult; error?: undefined }
  | { ticker: string; result?: undefined; error: unknown };

export interface AnalyzeEachOptions {
  /** Analyses in flight at once. */
  concurrency: number;
  /** One ticker's whole run (the CLI's is runAndSave: src/run). */
  run: (ticker: string) => Promise<AnalysisResult>;
  /** Once aborted no further ticker starts; those begun finish (interrupted) and are reported. */
  signal?: AbortSignal;
  /**
   * Called as each analysis finishes, in completion order, before its slot takes the
   * next ticker: whatever it keeps is all that is kept, so a universe of any size runs
   * in the memory of `concurrency` analyses. An error it throws ends the whole run.
   */
  onOutcome: (outcome: TickerOutcome) => void | Promise<void>;
}

/**
 * Every ticker, each a whole chain, at most `concurrency` at once; one ticker's error
 * never stops the others. Tickers are taken from the iterable lazily, one per free slot.
 * Resolves with how many tickers were started.
 */
export async function analyzeEach(tickers: Iterable<string>, settings: AnalyzeEachOptions): Promise<number> {
  const iterator = tickers[Symbol.iterator]();
  let started = 0;
  const slot = async () => {
    while (!settings.signal?.aborted) {
      const next = iterator.next();
      if (next.done) return;
      started += 1;
      const ticker = next.value;
      let outcome: TickerOutcome;
      try {
        outcome = { ticker, result: await settings.run(ticker) };
      } catch (error) {
        outcome = { ticker, error };
      }
      await settings.onOutcome(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, settings.concurrency) }, slot));
  return started;
}

/**
 * Several tickers at most `concurrency` at once, every outcome kept and returned in
 * the order the tickers were given (for `--json`'s array and small runs); a universe
 * streams through analyzeEach instead.
 */
export async function analyzeMany(
  tickers: string[],
  concurrency: number,
  options: (ticker: string) => AnalyzeOptions,
  deps: (ticker: string) => AnalyzeDeps,
  signal?: AbortSignal,
): Promise<TickerOutcome[]> {
  const outcomes: Array<TickerOutcome | undefined> = new Array(tickers.length);
  const positions = new Map(tickers.map((ticker, index) => [ticker, index]));
  await analyzeEach(tickers, {
    concurrency: Math.min(concurrency, tickers.length),
    run: (ticker) => analyze(ticker, options(ticker), deps(ticker)),
    signal,
    onOutcome: (outcome) => {
      outcomes[positions.get(outcome.ticker) ?? outcomes.length] = outcome;
    },
  });
  return outcomes.filter((outcome): outcome is TickerOutcome => outcome !== undefined);
}
