/** The data sources analyze needs besides the model: Exa search (optional) and Yahoo Finance. */
import { daysBefore } from '../clock.js';
import { errorMessage } from '../errors.js';
import type { MarketData } from '../market/types.js';
import type { SearchProvider } from '../tools/exa-search.js';
import { check, type Check } from './types.js';

const timeoutMs = 30_000;

/** One search of one result: the cheapest call that proves the key. */
export async function searchCheck(search: SearchProvider | null, asOf: Date): Promise<Check> {
  if (!search) return check('search', 'web search', 'warn', 'EXA_API_KEY not set: the sentiment desk runs without news search');
  try {
    const results = await search.search(
      { query: 'Apple stock news', numResults: 1, startPublishedDate: daysBefore(asOf, 7).toISOString(), endPublishedDate: asOf.toISOString() },
      AbortSignal.timeout(timeoutMs),
      'doctor',
    );
    return check('search', 'web search', 'ok', `Exa search works (${results.length} result${results.length === 1 ? '' : 's'} for one query)`);
  } catch (error) {
    const message = errorMessage(error);
    return check('search', 'web search', 'fail', message, /API key|401|403/i.test(message));
  }
}

/** A fresh snapshot of one liquid ticker, past the cache. */
export async function marketCheck(market: MarketData, asOf: Date): Promise<Check> {
  try {
    const snapshot = await market.snapshot('AAPL', { asOf, refresh: true, signal: AbortSignal.timeout(timeoutMs) });
    return check('market', 'market data', 'ok', `Yahoo Finance reachable (AAPL: ${snapshot.bars.length} daily bars)`);
  } catch (error) {
    return check('market', 'market data', 'fail', errorMessage(error));
  }
}
