import type { RunEvent } from '../events.js';
import { costOf, priceFor, type PriceTable } from '../llm/prices.js';
import type { AgentUsage, RunUsage } from './types.js';

/** Sums the usage events of a run per agent, and prices them where the model's price is known. */
export class UsageTracker {
  private readonly byAgent = new Map<string, { model: string; promptTokens: number; completionTokens: number; cachedPromptTokens: number }>();

  /** Calls per tool name (MCP tools included, as `<server>__<tool>`). */
  private readonly toolCalls = new Map<string, number>();

  readonly record = (event: RunEvent): void => {
    if (event.type === 'tool-call') this.toolCalls.set(event.name, (this.toolCalls.get(event.name) ?? 0) + 1);
    if (event.type !== 'usage') return;
    const current = this.byAgent.get(event.agent) ?? { model: event.model, promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 };
    current.promptTokens += event.usage.promptTokens;
    current.completionTokens += event.usage.completionTokens;
    current.cachedPromptTokens += event.usage.cachedPromptTokens;
    this.byAgent.set(event.agent, current);
  };

  summary(prices: PriceTable): RunUsage {
    const byAgent: Record<string, AgentUsage> = {};
    let promptTokens = 0;
    let completionTokens = 0;
    let cachedPromptTokens = 0;
    let costUsd: number | null = 0;
    for (const [agent, usage] of this.byAgent) {
      const price = priceFor(usage.model, prices);
      const cost = price ? costOf(usage, price) : null;
      byAgent[agent] = { ...usage, costUsd: cost };
      promptTokens += usage.promptTokens;
      completionTokens += usage.completionTokens;
      cachedPromptTokens += usage.cachedPromptTokens;
      costUsd = cost === null || costUsd === null ? null : costUsd + cost;
    }
    return { promptTokens, completionTokens, cachedPromptTokens, costUsd, byAgent, toolCalls: Object.fromEntries(this.toolCalls) };
  }
}
