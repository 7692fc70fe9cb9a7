import { CassetteError, findCause } from '../../../errors.js';
import type { FetchFunction } from '../../http.js';
import type { RequestLimiter } from './rate-limit.js';
import type { Freshness, ResponseCache } from './response-cache.js';

/**
 * Every request to SEC: through the injected fetch (the one cassettes record), with the
 * declared User-Agent, within the rate limit, and from the cache when it has a fresh answer.
 * A 404 is an answer ("this company has no such document"); anything else that is not a 200
 * is an EdgarUnavailableError, which costs the run its fundamentals and a note, never the run.
 */

export const secHosts = { data: 'https://data.sec.gov', www: 'https://www.sec.gov' } as const;

export class EdgarUnavailableError extends Error {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`SEC EDGAR unavailable (${reason})`, options);
    this.name = 'EdgarUnavailableError';
  }
}

export interface EdgarClient {
  /** The body, or null for a 404. */
  getText(url: string, freshness: Freshness, signal?: AbortSignal): Promise<string | null>;
}

export interface EdgarClientOptions {
  fetch: FetchFunction;
  userAgent: string;
  limiter: RequestLimiter;
  cache: ResponseCache | null;
}

const notFound = '\u0000404';

export function createEdgarClient(options: EdgarClientOptions): EdgarClient {
  const request = async (url: string, signal?: AbortSignal): Promise<string | null> => {
    await options.limiter.acquire(signal);
    let response: Response;
    try {
      response = await options.fetch(url, {
        headers: { 'User-Agent': options.userAgent, Accept: 'application/json' },
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      const cassette = findCause(error, (cause): cause is CassetteError => cause instanceof CassetteError);
      if (cassette) throw cassette;
      throw new EdgarUnavailableError(error instanceof Error ? error.message.split('\n')[0]! : 'network error', {
        cause: error,
      });
    }
    if (response.status === 404) {
      await response.arrayBuffer().catch(() => undefined);
      return null;
    }
    if (!response.ok) {
      await response.arrayBuffer().catch(() => undefined);
      throw new EdgarUnavailableError(`HTTP ${response.status}`);
    }
    return response.text();
  };
  return {
    async getText(url, freshness, signal) {
      const cached = await options.cache?.read(url, freshness).catch(() => null);
      if (cached !== null && cached !== undefined) return cached === notFound ? null : cached;
      const body = await request(url, signal);
      await options.cache?.write(url, body ?? notFound).catch(() => undefined);
      return body;
    },
  };
}
