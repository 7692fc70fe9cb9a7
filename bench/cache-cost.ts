/**
 * P14: what the prompt cache saves. The same 20-ticker universe (each snapshot with a
 * FUNDAMENTALS block) runs twice against a model server taught OpenAI's caching rule
 * (testkit/prompt-cache.ts): once in today's cacheable layout, once in the legacy layout
 * it replaces. Each call is priced from what the server billed, at the built-in prices.
 */
import { costOf, defaultPriceTable, priceFor } from '../src/llm/prices.js';
import type { BilledCall } from './model-server.js';

export interface LayoutCost {
  layout: 'cacheable' | 'legacy';
  promptTokens: number;
  cachedTokens: number;
  /** Mean USD per ticker; null when a model has no built-in price. */
  usdPerTicker: number | null;
}

export function layoutCost(layout: LayoutCost['layout'], billed: readonly BilledCall[], tickers: number): LayoutCost {
  let usd: number | null = 0;
  let promptTokens = 0;
  let cachedTokens = 0;
  for (const call of billed) {
    promptTokens += call.promptTokens;
    cachedTokens += call.cachedTokens;
    const price = priceFor(call.model, defaultPriceTable);
    const usage = {
      promptTokens: call.promptTokens,
      completionTokens: call.completionTokens,
      cachedPromptTokens: call.cachedTokens,
    };
    usd = price && usd !== null ? usd + costOf(usage, price) : null;
  }
  return { layout, promptTokens, cachedTokens, usdPerTicker: usd === null ? null : usd / Math.max(1, tickers) };
}

export const cachedShare = (cost: LayoutCost) => (cost.promptTokens > 0 ? cost.cachedTokens / cost.promptTokens : 0);
