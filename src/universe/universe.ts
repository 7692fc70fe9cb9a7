import { BudgetExceededError } from '../errors.js';
import { observeErrors } from '../llm/observed-model.js';
import type { ChatModel } from '../llm/types.js';

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

/** A budgeted model that remembers whether a call was ever refused for the cap. */
export function watchBudget(model: ChatModel): { model: ChatModel; reached(): boolean } {
  let reached = false;
  const observed = observeErrors(model, (error) => {
    if (error instanceof BudgetExceededError) reached = true;
  });
  return { model: observed, reached: () => reached };
}
