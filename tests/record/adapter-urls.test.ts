/**
 * What the cassette code reads out of recorded URLs comes from each adapter (issue 14.7):
 * the chat server's base, Exa's base, the symbols of Yahoo's charts. Each adapter knows
 * its own URLs and no other's; the demo cassette's real URL set is read the same way.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chatBaseUrlOf } from '../../src/llm/endpoints.js';
import { yahooChartSymbolOf } from '../../src/market/sources/yahoo/index.js';
import { isCrumbUrl } from '../../src/scrub.js';
import { exaBaseUrlOf } from '../../src/search/exa.js';

const readers = { chat: chatBaseUrlOf, exa: exaBaseUrlOf, chart: yahooChartSymbolOf };

describe('recorded URLs, read by the adapter they belong to', () => {
  it("the chat client's base URL, keeping a path prefix, nothing for other requests", () => {
    expect(chatBaseUrlOf('https://api.openai.com/v1/chat/completions')).toBe('https://api.openai.com/v1');
    expect(chatBaseUrlOf('http://127.0.0.1:8080/openai/v1/chat/completions')).toBe('http://127.0.0.1:8080/openai/v1');
    expect(chatBaseUrlOf('http://localhost:11434/chat/completions')).toBe('http://localhost:11434');
    expect(chatBaseUrlOf('https://api.exa.ai/search')).toBeUndefined();
    expect(chatBaseUrlOf('https://api.openai.com/v1/responses')).toBeUndefined();
  });

  it('the symbol of a Yahoo chart, upper-cased and decoded, nothing for other requests', () => {
    expect(
      yahooChartSymbolOf('https://query2.finance.yahoo.com/v8/finance/chart/ACME?interval=1d&crumb=REDACTED'),
    ).toBe('ACME');
    expect(yahooChartSymbolOf('http://127.0.0.1:4000/v8/finance/chart/brk-b')).toBe('BRK-B');
    expect(yahooChartSymbolOf('https://query2.finance.yahoo.com/v8/finance/chart/%5EGSPC')).toBe('^GSPC');
    expect(yahooChartSymbolOf('https://query2.finance.yahoo.com/v7/finance/quote?symbols=ACME')).toBeUndefined();
    expect(yahooChartSymbolOf('https://api.openai.com/v1/chat/completions')).toBeUndefined();
  });

  it('the demo cassette: every URL is claimed by at most one reader, and each reader finds its own', () => {
    const cassette = JSON.parse(readFileSync(new URL('../../demo/demo.cassette.json', import.meta.url), 'utf8')) as {
      interactions: Array<{ url: string }>;
    };
    const urls = cassette.interactions.map((interaction) => interaction.url);
    for (const url of urls) {
      const claims =
        Object.values(readers).filter((read) => read(url) !== undefined).length + (isCrumbUrl(url) ? 1 : 0);
      expect(claims, url).toBeLessThanOrEqual(1);
    }
    expect(new Set(urls.map(chatBaseUrlOf).filter(Boolean))).toEqual(new Set(['https://api.openai.com/v1']));
    expect(new Set(urls.map(exaBaseUrlOf).filter(Boolean))).toEqual(new Set(['https://api.exa.ai']));
    expect(new Set(urls.map(yahooChartSymbolOf).filter(Boolean))).toEqual(new Set(['ACME']));
    expect(urls.some(isCrumbUrl)).toBe(true);
  });
});
