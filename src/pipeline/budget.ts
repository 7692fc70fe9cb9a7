import { BudgetExceededError } from '../errors.js';
import type { ChatModel, ChatRequest, ChatResponse } from '../llm/types.js';
import { costOf, priceFor, searchCostOf, worstCaseCost, type PriceTable } from '../llm/prices.js';
import { SearchError, outcomeOf, type SearchProvider } from '../search/types.js';
import { defaultMaxTokens, estimatePromptTokens } from '../llm/token-estimate.js';

/**
 * One --max-cost cap, shared by everything that spends: model calls and searches. A
 * call is refused when the spend so far, plus what calls already in flight could cost,
 * plus this call's worst case would pass the cap.
 */
export interface SpendingCapOptions {
  /**
   * Under --replay / --demo: once the cap has refused a call, refuse every later one
   * too. The requests after a cap differ from the recording (the Director's decision
   * names the missing desk), so replaying them could only miss; the run ends as a cap
   * ends live — degraded, naming the call the cap stopped — not as a stale cassette.
   */
  stopAfterCap?: boolean;
  /** How the messages name the cap (default `--max-cost`): the MCP server's calls have a cap of their own. */
  label?: string;
}

export class SpendingCap {
  private spent = 0;
  private reserved = 0;
  /** The first call the cap refused. */
  private capped: string | null = null;

  constructor(
    readonly capUsd: number,
    private readonly options: SpendingCapOptions = {},
  ) {}

  /** What the calls made under the cap have cost so far, USD (each charged as its usage said). */
  get spentUsd(): number {
    return this.spent;
  }

  private get label(): string {
    return this.options.label ?? '--max-cost';
  }

  /** The first call the cap refused, or null while it has refused none. */
  get refusedCall(): string | null {
    return this.capped;
  }

  /** Runs `work` if its worst case fits, then charges what it really cost (the worst case when that is not a finite number). */
  async spend<T>(
    what: string,
    worstCase: number,
    work: () => Promise<T>,
    actualCost: (value: T) => number,
    failureCost: (error: unknown) => number = () => 0,
  ): Promise<T> {
    // NaN compares false with everything: a cost that is not a finite number stops the call.
    if (!Number.isFinite(worstCase)) {
      throw new BudgetExceededError(
        `the cost of the next ${what} cannot be computed, so ${this.label} cannot be enforced; the call was not made`,
      );
    }
    if (this.options.stopAfterCap && this.capped !== null) {
      throw new BudgetExceededError(
        `${this.label} $${this.capUsd.toFixed(4)} was reached at the ${this.capped}; a replay cannot go past a cap (what follows differs from the recording), so this ${what} was not made`,
      );
    }
    if (!(this.spent + this.reserved + worstCase <= this.capUsd)) {
      this.capped ??= what;
      throw new BudgetExceededError(
        `${this.label} $${this.capUsd.toFixed(4)} reached: the next ${what} could cost up to $${worstCase.toFixed(4)} ` +
          `(spent $${this.spent.toFixed(4)}, in flight up to $${this.reserved.toFixed(4)}); the call was not made`,
      );
    }
    this.reserved += worstCase;
    const charge = (cost: number) => {
      // A server's usage figures are untrusted: a non-finite cost counts as the worst case.
      this.spent += Number.isFinite(cost) && cost >= 0 ? cost : worstCase;
    };
    try {
      const value = await work();
      charge(actualCost(value));
      return value;
    } catch (error) {
      charge(failureCost(error));
      throw error;
    } finally {
      this.reserved -= worstCase;
    }
  }
}

/**
 * A ChatModel under a cap (a number, or a SpendingCap shared with searches). The
 * prompt's size is estimated at 4 characters a token, rounded up.
 */
export function withBudget(model: ChatModel, cap: number | SpendingCap, prices: PriceTable): ChatModel {
  const spending = typeof cap === 'number' ? new SpendingCap(cap) : cap;
  return {
    prepare: () => model.prepare?.(),
    ...(model.cacheCapabilities ? { cacheCapabilities: model.cacheCapabilities.bind(model) } : {}),
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const price = priceFor(request.model, prices);
      if (!price)
        throw new BudgetExceededError(
          `no price is known for model '${request.model}', so --max-cost cannot be enforced`,
        );
      const worstCase = worstCaseCost(estimatePromptTokens(request), request.maxTokens ?? defaultMaxTokens, price);
      const what = `${request.agent ?? 'model'} call`;
      return spending.spend(
        what,
        worstCase,
        () => model.complete(request),
        (response) => costOf(response.usage, price),
      );
    },
  };
}

/**
 * A SearchProvider under the same cap: each search is priced by its entry in the price
 * table (the provider's id for Exa, the search model for OpenAI) — its per-call fee plus,
 * for a model-backed search, the tokens of a whole answer as the worst case. A provider
 * with neither id nor model (the library user's own) is passed through unpriced.
 */
export function withSearchBudget(provider: SearchProvider, cap: SpendingCap, prices: PriceTable): SearchProvider {
  const priced = provider.model ?? provider.id;
  // A provider of the library user's own (no id, no model) has no price autohedge could know.
  if (priced === undefined) return provider;
  return {
    ...provider,
    prepare: () => provider.prepare?.(),
    async search(request, signal, agent) {
      const price = priceFor(priced, prices);
      if (!price)
        throw new BudgetExceededError(`no price is known for '${priced}' searches, so --max-cost cannot be enforced`);
      const promptTokens = Math.ceil((request.query.length + 400) / 4);
      const worstCase = searchCostOf(
        provider.model
          ? { promptTokens, completionTokens: provider.maxTokens ?? defaultMaxTokens, cachedPromptTokens: 0 }
          : undefined,
        price,
      );
      return cap.spend(
        `${provider.id ?? 'web'} search`,
        worstCase,
        () => provider.search(request, signal, agent),
        (answer) => searchCostOf(outcomeOf(answer).usage, price),
        // A search that spent tokens and then failed (no citations) was billed all the same.
        (error) => (error instanceof SearchError && error.spent ? searchCostOf(error.spent.usage, price) : 0),
      );
    },
  };
}

export { estimatePromptTokens } from '../llm/token-estimate.js';
