import { BudgetExceededError } from '../errors.js';
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
  return {
    model: {
      prepare: () => model.prepare?.(),
      async complete(request) {
        try {
          return await model.complete(request);
        } catch (error) {
          if (error instanceof BudgetExceededError) reached = true;
          throw error;
        }
      },
    },
    reached: () => reached,
  };
}
