/**
 * The tickers one at a time until `stop()` says the run should take no more (the
 * --max-cost cap was reached); `notStarted.count` then says how many were left.
 */
export function* tickersUntil(
  tickers: readonly string[],
  stop: () => boolean,
  notStarted: { count: number },
): Generator<string> {
  for (const [index, ticker] of tickers.entries()) {
    if (stop()) {
      notStarted.count = tickers.length - index;
      return;
    }
    yield ticker;
  }
}
