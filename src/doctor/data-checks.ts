/** The data sources analyze needs besides the model: web search (optional) and the market data sources. */
import { daysBefore } from '../clock.js';
import { errorMessage } from '../errors.js';
import { secUserAgentFromEnv, userAgentVariable } from '../market/sources/edgar/config.js';
import type { MarketData } from '../market/types.js';
import { outcomeOf, type SearchChoice, type SearchProvider } from '../search/types.js';
import { check, type Check } from './types.js';

const timeoutMs = 30_000;

/** The search the sentiment desk would use, as `--search` / AUTOHEDGE_SEARCH chose it. */
export interface SearchSetup {
  choice: SearchChoice;
  /** Null for `none`, and for Exa without a key. */
  provider: SearchProvider | null;
}

const sourceNames: Record<SearchChoice, string> = {
  exa: 'Exa search',
  openai: "OpenAI's built-in web search",
  none: 'no search',
};

/** One search of one result: the cheapest call that proves the key. */
export async function searchCheck(setup: SearchSetup, asOf: Date): Promise<Check> {
  if (setup.choice === 'none')
    return check(
      'search',
      'web search',
      'skip',
      'search is off (--search none / AUTOHEDGE_SEARCH=none): the sentiment desk runs without it',
    );
  if (!setup.provider)
    return check('search', 'web search', 'warn', 'EXA_API_KEY not set: the sentiment desk runs without news search');
  try {
    const answer = await setup.provider.search(
      {
        query: 'Apple stock news',
        numResults: 1,
        startPublishedDate: daysBefore(asOf, 7).toISOString(),
        endPublishedDate: asOf.toISOString(),
      },
      AbortSignal.timeout(timeoutMs),
      'doctor',
    );
    const count = outcomeOf(answer).results.length;
    return check(
      'search',
      'web search',
      'ok',
      `${sourceNames[setup.choice]} works (${count} result${count === 1 ? '' : 's'} for one query)`,
    );
  } catch (error) {
    const message = errorMessage(error);
    return check('search', 'web search', 'fail', message, /API key|401|403/i.test(message));
  }
}

/** A fresh snapshot of one liquid ticker, past the cache. */
export async function marketCheck(market: MarketData, asOf: Date): Promise<Check> {
  try {
    const snapshot = await market.snapshot('AAPL', { asOf, refresh: true, signal: AbortSignal.timeout(timeoutMs) });
    const vendor = snapshot.vendors?.bars.label ?? 'market data';
    const sources = market.describeSources?.() ?? [];
    const configured = sources.length > 0 ? `; sources: ${sources.join(', ')}` : '';
    return check(
      'market',
      'market data',
      'ok',
      `${vendor} reachable (AAPL: ${snapshot.bars.length} daily bars)${configured}`,
    );
  } catch (error) {
    // Which sources were asked, so a failover that was configured and failed too is visible.
    const sources = market.describeSources?.() ?? [];
    const asked = sources.length > 0 ? `; sources: ${sources.join(', ')}` : '';
    return check('market', 'market data', 'fail', `${errorMessage(error)}${asked}`);
  }
}

/**
 * SEC EDGAR's fundamentals need only the declared User-Agent: checked as configured, not
 * asked (SEC is asked on a run's first US listing). Malformed is a configuration failure.
 */
export function fundamentalsCheck(env: NodeJS.ProcessEnv): Check {
  let userAgent: string | undefined;
  try {
    userAgent = secUserAgentFromEnv(env);
  } catch (error) {
    return check('fundamentals', 'fundamentals', 'fail', errorMessage(error), true);
  }
  if (userAgent === undefined)
    return check(
      'fundamentals',
      'fundamentals',
      'warn',
      `${userAgentVariable} not set: runs go without SEC EDGAR fundamentals (set it to "Name email")`,
    );
  return check(
    'fundamentals',
    'fundamentals',
    'ok',
    `SEC EDGAR (as filed), User-Agent declared; asked on a run's first US listing`,
  );
}
