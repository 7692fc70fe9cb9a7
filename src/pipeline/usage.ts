import { BudgetExceededError } from '../errors.js';
import type { EventSink, RunEvent } from '../events.js';
import { addUsage, zeroUsage, type Usage } from '../llm/types.js';
import { cacheSavingOf, costOf, priceFor, searchCostOf, type Price, type PriceTable } from '../llm/prices.js';
import { SearchError, outcomeOf, type SearchProvider } from '../search/types.js';
import type { AgentUsage, RunUsage, SearchUsage } from '../result/types.js';

/** Sums the usage events of a run per agent, and prices them where the model's price is known. */
export class UsageTracker {
  /** Per agent: its model and its usage at each tier (flex calls are priced at the flex rate). */
  private readonly byAgent = new Map<string, { model: string; standard: Usage; flex: Usage }>();

  /** Calls per tool name (MCP tools included, as `<server>__<tool>`). */
  private readonly toolCalls = new Map<string, number>();

  private search: (Omit<SearchUsage, 'costUsd'> & { cachedPromptTokens: number }) | null = null;

  readonly record = (event: RunEvent): void => {
    if (event.type === 'tool-call') this.toolCalls.set(event.name, (this.toolCalls.get(event.name) ?? 0) + 1);
    if (event.type === 'search-usage') this.recordSearch(event);
    if (event.type !== 'usage') return;
    const current = this.byAgent.get(event.agent) ?? { model: event.model, standard: zeroUsage(), flex: zeroUsage() };
    if (event.usage.serviceTier === 'flex') current.flex = addUsage(current.flex, event.usage);
    else current.standard = addUsage(current.standard, event.usage);
    this.byAgent.set(event.agent, current);
  };

  private recordSearch(event: Extract<RunEvent, { type: 'search-usage' }>): void {
    const current = this.search ?? {
      provider: event.provider,
      model: event.model,
      searches: 0,
      promptTokens: 0,
      completionTokens: 0,
      cachedPromptTokens: 0,
    };
    current.searches += 1;
    current.promptTokens += event.usage?.promptTokens ?? 0;
    current.completionTokens += event.usage?.completionTokens ?? 0;
    current.cachedPromptTokens += event.usage?.cachedPromptTokens ?? 0;
    this.search = current;
  }

  /** The run's searches priced: each search's fee, plus the search model's tokens. */
  private searchSummary(prices: PriceTable): SearchUsage | undefined {
    if (!this.search) return undefined;
    const { cachedPromptTokens, ...search } = this.search;
    const price = priceFor(search.model ?? search.provider, prices);
    const perSearch = price?.perCall ?? 0;
    const tokens =
      price && search.model
        ? searchCostOf(
            { promptTokens: search.promptTokens, completionTokens: search.completionTokens, cachedPromptTokens },
            { ...price, perCall: 0 },
          )
        : 0;
    const cost = price ? perSearch * search.searches + tokens : null;
    return { ...search, costUsd: cost !== null && Number.isFinite(cost) ? cost : null };
  }

  summary(prices: PriceTable): RunUsage {
    const byAgent: Record<string, AgentUsage> = {};
    let total = zeroUsage();
    let costUsd: number | null = 0;
    let cacheSavedUsd: number | null = 0;
    // In one order whatever order the desks finished in: a float sum depends on its order, and
    // the same run must cost the same to the last digit in every shell.
    const agents = [...this.byAgent].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    for (const [agent, usage] of agents) {
      const entry = agentUsage(usage, priceFor(usage.model, prices));
      byAgent[agent] = entry;
      total = addUsage(total, addUsage(usage.standard, usage.flex));
      costUsd = sumOrNull(costUsd, entry.costUsd);
      cacheSavedUsd = sumOrNull(cacheSavedUsd, entry.cacheSavedUsd ?? null);
    }
    const search = this.searchSummary(prices);
    if (search) costUsd = sumOrNull(costUsd, search.costUsd);
    return {
      promptTokens: total.promptTokens,
      completionTokens: total.completionTokens,
      cachedPromptTokens: total.cachedPromptTokens,
      cacheWriteTokens: total.cacheWriteTokens ?? 0,
      costUsd,
      cacheSavedUsd,
      byAgent,
      ...(search ? { search } : {}),
      toolCalls: Object.fromEntries(this.toolCalls),
    };
  }
}

/** An unknown amount makes the sum unknown. */
function sumOrNull(total: number | null, amount: number | null): number | null {
  return total === null || amount === null ? null : total + amount;
}

/** A server's token counts are untrusted (1e400 parses as Infinity): an incomputable amount is unknown, not NaN. */
function finiteOrNull(amount: number | null): number | null {
  return amount !== null && Number.isFinite(amount) ? amount : null;
}

/** One agent's usage, each tier priced at its own rates. */
function agentUsage(usage: { model: string; standard: Usage; flex: Usage }, price: Price | null): AgentUsage {
  const both = addUsage(usage.standard, usage.flex);
  const priced = (what: (tier: Usage, price: Price) => number) =>
    price ? finiteOrNull(what(usage.standard, price) + what({ ...usage.flex, serviceTier: 'flex' }, price)) : null;
  return {
    model: usage.model,
    promptTokens: both.promptTokens,
    completionTokens: both.completionTokens,
    cachedPromptTokens: both.cachedPromptTokens,
    cacheWriteTokens: both.cacheWriteTokens ?? 0,
    ...(usage.flex.promptTokens > 0 ? { flexPromptTokens: usage.flex.promptTokens } : {}),
    costUsd: priced(costOf),
    cacheSavedUsd: priced(cacheSavingOf),
  };
}

/**
 * The run's search provider, reporting every search it made as a `search-usage` event
 * (so the run's usage and cost count them): each answered search, and each that spent
 * tokens before it failed (an OpenAI answer without citations is billed all the same).
 * A search the --max-cost cap refused is also a warning.
 */
export function meterSearch(provider: SearchProvider, events: EventSink): SearchProvider {
  const report = (agent: string | undefined, model: string | null, usage: Usage | null) =>
    events({ type: 'search-usage', agent: agent ?? 'unknown', provider: provider.id ?? 'custom', model, usage });
  return {
    ...provider,
    prepare: () => provider.prepare?.(),
    async search(request, signal, agent) {
      try {
        const outcome = outcomeOf(await provider.search(request, signal, agent));
        report(agent, outcome.model ?? provider.model ?? null, outcome.usage ?? null);
        return outcome;
      } catch (error) {
        if (error instanceof SearchError && error.spent) report(agent, error.spent.model, error.spent.usage);
        // The model reads the refusal as its tool result; the user is told as well.
        if (error instanceof BudgetExceededError) events({ type: 'warning', message: error.message });
        throw error;
      }
    },
  };
}
