import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { checkSearchForHistoricalRun, resolveSearchChoice } from '../../src/search/choice.js';
import { exaBaseUrlOf } from '../../src/search/exa.js';
import type { SearchProvider, SearchRequest, SearchResult } from '../../src/search/types.js';
import { createExaSearchTool } from '../../src/tools/exa-search.js';
import type { ToolContext } from '../../src/tools/types.js';

// The as-of day's US close: a historical run's clock.
const asOf = new Date('2025-03-14T20:00:00.000Z');
const result = (url: string, publishedDate: string | null): SearchResult => ({
  title: url,
  url,
  publishedDate,
  author: null,
  snippet: `about ${url}`,
});
const served = [
  result('https://a.example/before', '2025-03-10T00:00:00.000Z'),
  result('https://a.example/on-the-day', '2025-03-14T13:00:00.000Z'),
  result('https://a.example/after-the-close', '2025-03-14T22:00:00.000Z'),
  result('https://a.example/next-week', '2025-03-21'),
  result('https://a.example/undated', null),
  result('https://a.example/unreadable-date', 'last Tuesday'),
];

function provider(): SearchProvider & { requests: SearchRequest[] } {
  const requests: SearchRequest[] = [];
  return {
    requests,
    async search(request) {
      requests.push(request);
      return served;
    },
  };
}

async function run(context: Partial<ToolContext>, options: { historical?: boolean } = {}) {
  const search = provider();
  const tool = createExaSearchTool(search, options);
  const output = await tool.run(
    { query: 'acme', numResults: 10, daysBack: 30 },
    { asOf, signal: new AbortController().signal, ...context },
  );
  const [header = '', body = '[]'] = output.split('\n');
  return { header, urls: (JSON.parse(body) as SearchResult[]).map((entry) => entry.url), request: search.requests[0] };
}

describe('search results and the run clock', () => {
  it('a historical run: the window ends at the as-of close, later and undated results are dropped', async () => {
    const { header, urls, request } = await run({ historical: true });

    expect(request).toMatchObject({
      endPublishedDate: asOf.toISOString(),
      startPublishedDate: '2025-02-12T20:00:00.000Z',
      historical: true,
    });
    expect(urls).toEqual(['https://a.example/before', 'https://a.example/on-the-day']);
    expect(header).toContain(
      '2 search results for "acme" published 2025-02-12 to 2025-03-14 (2 dated after the window dropped, 2 undated dropped (historical run))',
    );
  });

  it('the historical flag may also come with the tool (for a pipeline that builds tools per run)', async () => {
    const { urls } = await run({}, { historical: true });
    expect(urls).toEqual(['https://a.example/before', 'https://a.example/on-the-day']);
  });

  it('a live run: results dated after the clock are dropped, undated ones kept', async () => {
    const { urls, request } = await run({});
    expect(request?.historical).toBe(false);
    expect(urls).toEqual([
      'https://a.example/before',
      'https://a.example/on-the-day',
      'https://a.example/undated',
      'https://a.example/unreadable-date',
    ]);
  });

  it('nothing left after the date rule: says so, with what was dropped', async () => {
    const search: SearchProvider = { search: async () => [result('https://a.example/later', '2025-04-01')] };
    const output = await createExaSearchTool(search).run(
      { query: 'acme', numResults: 5, daysBack: 7 },
      { asOf, signal: new AbortController().signal, historical: true },
    );
    expect(output).toBe(
      'No results found for "acme" published 2025-03-07 to 2025-03-14 (1 dated after the window dropped).',
    );
  });
});

describe('--search with a historical run', () => {
  it('openai is refused with a usage error (exit 2): its search has no date filter', () => {
    expect(() => checkSearchForHistoricalRun('openai', true)).toThrow(UsageError);
    expect(() => checkSearchForHistoricalRun('openai', true)).toThrow(/--search openai cannot be used with --as-of/);
    expect(new UsageError('x').exitCode).toBe(2);
  });

  it('exa and none are fine, and openai in a live run', () => {
    for (const choice of ['exa', 'none'] as const)
      expect(() => checkSearchForHistoricalRun(choice, true)).not.toThrow();
    expect(() => checkSearchForHistoricalRun('openai', false)).not.toThrow();
  });
});

describe('resolveSearchChoice', () => {
  it('--search beats AUTOHEDGE_SEARCH beats exa', () => {
    expect(resolveSearchChoice(undefined, {})).toBe('exa');
    expect(resolveSearchChoice(undefined, { AUTOHEDGE_SEARCH: ' OpenAI ' })).toBe('openai');
    expect(resolveSearchChoice('none', { AUTOHEDGE_SEARCH: 'openai' })).toBe('none');
    expect(resolveSearchChoice(undefined, { AUTOHEDGE_SEARCH: '' })).toBe('exa');
  });
});

describe('exaBaseUrlOf: what a replay needs from a recorded URL', () => {
  it('the base of an Exa search, nothing for other requests', () => {
    expect(exaBaseUrlOf('https://api.exa.ai/search')).toBe('https://api.exa.ai');
    expect(exaBaseUrlOf('http://127.0.0.1:4010/exa/search')).toBe('http://127.0.0.1:4010/exa');
    expect(exaBaseUrlOf('https://api.openai.com/v1/chat/completions')).toBeUndefined();
    expect(exaBaseUrlOf('https://query2.finance.yahoo.com/v8/finance/chart/ACME?interval=1d')).toBeUndefined();
  });
});
