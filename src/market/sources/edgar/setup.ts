import type { FundamentalsJoin } from '../../fundamentals-attach.js';
import type { MarketData } from '../../types.js';
import { createResponseCache } from './response-cache.js';
import { notConfiguredLine, secUserAgentFromEnv } from './config.js';
import { createEdgarSource, isForeignTicker } from './source.js';

/**
 * Whether a run gets SEC fundamentals, and how. A live run or a recording needs the declared
 * User-Agent (else one line, and no request); a replay makes EDGAR requests only when its
 * cassette recorded some, so every cassette recorded before this source still replays.
 */

export interface EdgarSetup {
  env: NodeJS.ProcessEnv;
  replay: boolean;
  recordedUrls: readonly string[];
  /** `$AUTOHEDGE_HOME/cache/edgar`, or null (recording and replay never cache). */
  cacheDir: string | null;
  today: () => Date;
}

/** The User-Agent a replay sends: never compared, never leaves the machine. */
const replayUserAgent = 'autohedge-replay replay@example.invalid';

const isSecUrl = (url: string) => /^https:\/\/(data|www)\.sec\.gov\//.test(url);

/** The join; `not-configured` for a live run without the User-Agent; null for a replay that recorded no SEC request. */
export function edgarJoin(setup: EdgarSetup): FundamentalsJoin | 'not-configured' | null {
  let userAgent: string | undefined;
  if (setup.replay) {
    if (!setup.recordedUrls.some(isSecUrl)) return null;
    userAgent = replayUserAgent;
  } else {
    userAgent = secUserAgentFromEnv(setup.env);
    if (userAgent === undefined) return 'not-configured';
  }
  const source = createEdgarSource({
    // Late-bound, so a recorder installed after this sees every request.
    fetch: (input, init) => globalThis.fetch(input, init),
    userAgent,
    cache: setup.cacheDir ? createResponseCache(setup.cacheDir) : null,
  });
  return { source, today: setup.today };
}

/**
 * The market as it is, saying "not configured" in one line the first time a snapshot is asked
 * for a listing EDGAR covers: once a session (a universe of 500 tickers says it once), and
 * never for a run of Tokyo or London tickers, which EDGAR would not have been asked about.
 */
export function sayingNotConfigured(market: MarketData, warn: (message: string) => void): MarketData {
  let said = false;
  return {
    ...market,
    snapshot: (ticker, options) => {
      if (!said && !isForeignTicker(ticker)) {
        said = true;
        warn(notConfiguredLine);
      }
      return market.snapshot(ticker, options);
    },
  };
}
