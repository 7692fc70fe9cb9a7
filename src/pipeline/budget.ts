import { BudgetExceededError } from '../errors.js';
import type { ChatModel, ChatRequest, ChatResponse } from '../llm/types.js';
import { costOf, priceFor, worstCaseCost, type PriceTable } from '../llm/prices.js';

/** Completion cap assumed for a call that sets none. */
const defaultMaxTokens = 4_096;

/**
 * A ChatModel that refuses a call when the spend so far, plus what calls already
 * in flight could cost, plus this call's worst case would pass the cap. The
 * prompt's size is estimated at 4 characters a token, rounded up.
 */
export function withBudget(model: ChatModel, capUsd: number, prices: PriceTable): ChatModel {
  let spent = 0;
  let reserved = 0;
  return {
    prepare: () => model.prepare?.(),
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const price = priceFor(request.model, prices);
      if (!price) throw new BudgetExceededError(`no price is known for model '${request.model}', so --max-cost cannot be enforced`);
      const worstCase = worstCaseCost(estimatePromptTokens(request), request.maxTokens ?? defaultMaxTokens, price);
      // NaN compares false with everything: a cost that is not a finite number stops the call.
      if (!Number.isFinite(worstCase)) {
        throw new BudgetExceededError(`the cost of a ${request.agent ?? 'model'} call to '${request.model}' cannot be computed, so --max-cost cannot be enforced; the call was not made`);
      }
      if (!(spent + reserved + worstCase <= capUsd)) {
        throw new BudgetExceededError(
          `--max-cost $${capUsd.toFixed(4)} reached: the next ${request.agent ?? 'model'} call could cost up to $${worstCase.toFixed(4)} ` +
            `(spent $${spent.toFixed(4)}, in flight up to $${reserved.toFixed(4)}); the call was not made`,
        );
      }
      reserved += worstCase;
      try {
        const response = await model.complete(request);
        const cost = costOf(response.usage, price);
        // A server's usage figures are untrusted: a non-finite cost counts as the worst case.
        spent += Number.isFinite(cost) && cost >= 0 ? cost : worstCase;
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
