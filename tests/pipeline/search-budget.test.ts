import { describe, expect, it } from 'vitest';
import { BudgetExceededError } from '../../src/errors.js';
import { defaultPriceTable, loadPriceTable, searchCostOf } from '../../src/llm/prices.js';
import type { ChatModel } from '../../src/llm/types.js';
import { SpendingCap, withBudget, withSearchBudget } from '../../src/pipeline/budget.js';
import { UsageTracker, meterSearch } from '../../src/pipeline/usage.js';
import { SearchError, type SearchProvider, type SearchRequest } from '../../src/search/types.js';
import type { RunEvent } from '../../src/events.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const request: SearchRequest = {
  query: 'acme',
  numResults: 5,
  startPublishedDate: '2026-10-29T00:00:00.000Z',
  endPublishedDate: '2026-11-28T00:00:00.000Z',
};
const signal = new AbortController().signal;

function exaLike(): SearchProvider & { calls: number } {
  const provider = {
    id: 'exa' as const,
    calls: 0,
    async search() {
      provider.calls += 1;
      return [{ title: 'a', url: 'https://a.example', publishedDate: null, author: null, snippet: '' }];
    },
  };
  return provider;
}

const openaiLike = (usage = { promptTokens: 3_000, completionTokens: 200, cachedPromptTokens: 0 }): SearchProvider => ({
  id: 'openai',
  model: 'gpt-4o-mini-search-preview',
  maxTokens: 1_200,
  async search() {
    return {
      results: [{ title: 'a', url: 'https://a.example', publishedDate: null, author: null, snippet: '' }],
      usage,
      model: 'gpt-4o-mini-search-preview',
    };
  },
});

describe('searches under --max-cost', () => {
  it('an Exa search costs its per-search price, and the cap refuses the search that would pass it', async () => {
    const provider = exaLike();
    // Room for two searches at $0.007, not three.
    const capped = withSearchBudget(provider, new SpendingCap(0.015), defaultPriceTable);
    await capped.search(request, signal);
    await capped.search(request, signal);
    await expect(capped.search(request, signal)).rejects.toThrow(BudgetExceededError);
    await expect(capped.search(request, signal)).rejects.toThrow(
      /--max-cost \$0\.0150 reached: the next exa search could cost up to \$0\.0070 \(spent \$0\.0140/,
    );
    expect(provider.calls).toBe(2);
  });

  it('one cap is shared by model calls and searches', async () => {
    const cap = new SpendingCap(0.02);
    const model: ChatModel = {
      async complete() {
        return {
          message: { role: 'assistant', content: 'ok' },
          finishReason: 'stop',
          usage: { promptTokens: 2_000, completionTokens: 500, cachedPromptTokens: 0 },
          model: 'gpt-4o-mini',
        };
      },
    };
    const search = withSearchBudget(exaLike(), cap, defaultPriceTable);
    await search.search(request, signal);
    await search.search(request, signal);
    // $0.014 spent on searches: a gpt-4.1 call whose worst case is ~$0.0097 no longer fits.
    const capped = withBudget(model, cap, defaultPriceTable);
    await expect(
      capped.complete({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }], maxTokens: 1_200 }),
    ).rejects.toThrow(/the next model call could cost up to/);
  });

  it('an OpenAI search: the fee plus the whole answer as its worst case, then what it really spent', async () => {
    const price = defaultPriceTable['gpt-4o-mini-search-preview']!;
    const spent = searchCostOf({ promptTokens: 3_000, completionTokens: 200, cachedPromptTokens: 0 }, price);
    expect(spent).toBeCloseTo(0.025 + (3_000 * 0.15 + 200 * 0.6) / 1e6, 12);
    const capped = withSearchBudget(openaiLike(), new SpendingCap(spent * 2 + 0.001), defaultPriceTable);
    await capped.search(request, signal);
    await capped.search(request, signal);
    await expect(capped.search(request, signal)).rejects.toThrow(/the next openai search could cost up to/);
  });

  it('an unpriced search provider cannot run under a cap', async () => {
    const provider: SearchProvider = { id: 'exa', search: async () => [] };
    const capped = withSearchBudget(provider, new SpendingCap(1), {
      'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
    });
    await expect(capped.search(request, signal)).rejects.toThrow(
      "no price is known for 'exa' searches, so --max-cost cannot be enforced",
    );
  });

  it('AUTOHEDGE_PRICES may set a per-search price', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'autohedge-prices-'));
    const file = join(directory, 'prices.json');
    writeFileSync(
      file,
      JSON.stringify({ exa: { perCall: 0.05 }, 'gpt-4o-mini-search-preview': { input: 1, output: 2, perCall: 0.1 } }),
    );
    const table = await loadPriceTable({ AUTOHEDGE_PRICES: file });
    expect(table['exa']).toEqual({ input: 0, cachedInput: 0, output: 0, perCall: 0.05 });
    expect(table['gpt-4o-mini-search-preview']).toEqual({ input: 1, cachedInput: 1, output: 2, perCall: 0.1 });
    const capped = withSearchBudget(exaLike(), new SpendingCap(0.06), table);
    await capped.search(request, signal);
    await expect(capped.search(request, signal)).rejects.toThrow(BudgetExceededError);
  });
});

describe('searches in the run usage', () => {
  it('each search is counted and priced in usage.search and in the total', async () => {
    const events: RunEvent[] = [];
    const tracker = new UsageTracker();
    const sink = (event: RunEvent) => {
      events.push(event);
      tracker.record(event);
    };
    const search = meterSearch(exaLike(), sink);
    await search.search(request, signal, 'sentiment');
    await search.search(request, signal, 'sentiment');
    expect(events).toEqual([
      { type: 'search-usage', agent: 'sentiment', provider: 'exa', model: null, usage: null },
      { type: 'search-usage', agent: 'sentiment', provider: 'exa', model: null, usage: null },
    ]);
    const summary = tracker.summary(defaultPriceTable);
    expect(summary.search).toEqual({
      provider: 'exa',
      model: null,
      searches: 2,
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0.014,
    });
    expect(summary.costUsd).toBeCloseTo(0.014, 12);
  });

  it('a search that spent tokens and failed is counted too; one that spent nothing is not', async () => {
    const tracker = new UsageTracker();
    const usage = { promptTokens: 1_000, completionTokens: 10, cachedPromptTokens: 0 };
    const failing: SearchProvider = {
      id: 'openai',
      model: 'gpt-4o-mini-search-preview',
      async search(searchRequest) {
        if (searchRequest.query === 'billed')
          throw new SearchError('no citations', 'no-citations', null, { usage, model: 'gpt-4o-mini-search-preview' });
        throw new SearchError('could not reach OpenAI', 'connection');
      },
    };
    const search = meterSearch(failing, tracker.record);
    await expect(search.search({ ...request, query: 'billed' }, signal, 'sentiment')).rejects.toThrow('no citations');
    await expect(search.search(request, signal, 'sentiment')).rejects.toThrow('could not reach OpenAI');
    expect(tracker.summary(defaultPriceTable).search).toMatchObject({
      searches: 1,
      promptTokens: 1_000,
      completionTokens: 10,
      costUsd: expect.closeTo(0.025 + (1_000 * 0.15 + 10 * 0.6) / 1e6, 12),
    });
  });
});
