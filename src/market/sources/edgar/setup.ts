import type { FundamentalsJoin } from '../../fundamentals-attach.js';
import { createResponseCache } from './response-cache.js';
import { notConfiguredLine, secUserAgentFromEnv } from './config.js';
import { createEdgarSource } from './source.js';

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
  /** Where "not configured" is said: once a session, so a universe of 500 tickers says it once. */
  warn: (message: string) => void;
}

/** The User-Agent a replay sends: never compared, never leaves the machine. */
const replayUserAgent = 'autohedge-replay replay@example.invalid';

const isSecUrl = (url: string) => /^https:\/\/(data|www)\.sec\.gov\//.test(url);

export function edgarJoin(setup: EdgarSetup): FundamentalsJoin | null {
  let userAgent: string | undefined;
  if (setup.replay) {
    if (!setup.recordedUrls.some(isSecUrl)) return null;
    userAgent = replayUserAgent;
  } else {
    userAgent = secUserAgentFromEnv(setup.env);
    if (userAgent === undefined) {
      setup.warn(notConfiguredLine);
      return null;
    }
  }
  const source = createEdgarSource({
    // Late-bound, so a recorder installed after this sees every request.
    fetch: (input, init) => globalThis.fetch(input, init),
    userAgent,
    cache: setup.cacheDir ? createResponseCache(setup.cacheDir) : null,
  });
  return { source, today: setup.today };
}
