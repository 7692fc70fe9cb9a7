import { BudgetExceededError } from '../errors.js';
import type { ChatModel, ChatRequest, ChatResponse } from '../llm/types.js';
import { costOf, priceFor, worstCaseCost, type PriceTable } from '../llm/prices.js';

/** Completion cap assumed for a call that sets none. */
const defaultMaxTokens = 4_096;

export interface BudgetOptions {
  /**
   * Under --replay / --demo: once the cap has refused a call, refuse every later one
   * too. The requests after a cap differ from the recording (the Director's decision
   * names the missing desk), so replaying them could only miss; the run ends as a cap
   * ends live — degraded, naming the call the cap stopped — not as a stale cassette.
   */
  stopAfterCap?: boolean;
}

/**
 * A ChatModel that refuses a call when the spend so far, plus what calls already
 * in flight could cost, plus this call's worst case would pass the cap. The
 * prompt's size is estimated at 4 characters a token, rounded up.
 */
export function withBudget(model: ChatModel, capUsd: number, prices: PriceTable, options: BudgetOptions = {}): ChatModel {
  let spent = 0;
  let reserved = 0;
  let cappedCall: string | null = null;
  return {
    prepare: () => model.prepare?.(),
    async complete(request: ChatRequest): Promise<ChatResponse> {
      if (options.stopAfterCap && cappedCall !== null) {
        throw new BudgetExceededError(
          `--max-cost $${capUsd.toFixed(4)} was reached at the ${cappedCall} call; a replay cannot go past a cap (what follows differs from the recording), so this ${request.agent ?? 'model'} call was not made`,
        );
      }
      const price = priceFor(request.model, prices);
      if (!price) throw new BudgetExceededError(`no price is known for model '${request.model}', so --max-cost cannot be enforced`);
      const worstCase = worstCaseCost(estimatePromptTokens(request), request.maxTokens ?? defaultMaxTokens, price);
      if (spent + reserved + worstCase > capUsd) {
        cappedCall ??= request.agent ?? 'model';
        throw new BudgetExceededError(
          `--max-cost $${capUsd.toFixed(4)} reached: the next ${request.agent ?? 'model'} call could cost up to $${worstCase.toFixed(4)} ` +
            `(spent $${spent.toFixed(4)}, in flight up to $${reserved.toFixed(4)}); the call was not made`,
        );
      }
      reserved += worstCase;
      try {
        const response = await model.complete(request);
        spent += costOf(response.usage, price);
        return response;
      } finally {
        reserved -= worstCase;
      }
    },
  };
}

export function estimatePromptTokens(request: Pick<ChatRequest, 'messages' | 'tools' | 'responseFormat'>): number {
  const characters =
    JSON.stringify(request.messages).length +
    (request.tools ? JSON.stringify(request.tools).length : 0) +
    (request.responseFormat ? JSON.stringify(request.responseFormat).length : 0);
  return Math.ceil(characters / 4);
}
