import { setTimeout as sleep } from 'node:timers/promises';
import { formatSeconds } from '../clock.js';
import { CassetteError, findCause } from '../errors.js';

/**
 * The fetch yahoo-finance2 is given. It adds what the library lacks: a timeout per
 * attempt, retries with backoff for network failures, 5xx and 429, and one typed error
 * once Yahoo cannot be reached. It also keeps the library from printing: yahoo-finance2
 * writes the request URL to console.error for any error response that is not Yahoo's
 * JSON error envelope, so such responses become a thrown YahooUnreachableError here and
 * the library never sees them.
 */

export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Yahoo could not be reached or refused to serve us, after retries. `reason` is short and safe to show. */
export class YahooUnreachableError extends Error {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`could not reach Yahoo Finance (${reason})`, options);
    this.name = 'YahooUnreachableError';
  }
}

export interface ResilientFetchOptions {
  fetch: FetchFunction;
  /** Extra attempts after the first for retryable failures. */
  retries: number;
  /** Backoff before retry n (0-based) is retryDelayMs × 2ⁿ. */
  retryDelayMs: number;
  /** Per attempt. */
  timeoutMs: number;
  debug: (message: string) => void;
}

export const defaultRetries = 2;
export const defaultRetryDelayMs = 400;
export const defaultTimeoutMs = 15_000;

const reasonsByCode: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'DNS lookup failed',
  EAI_AGAIN: 'DNS lookup failed',
  ETIMEDOUT: 'connection timed out',
  ENETUNREACH: 'network unreachable',
  EHOSTUNREACH: 'host unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
  CERT_HAS_EXPIRED: 'TLS certificate error',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate error',
};

/** A short, secret-free reason for a fetch that threw. */
export function networkReason(error: unknown): string {
  // The nearest code we have words for: undici nests the socket's error under "fetch failed".
  const known = findCause(error, (cause): cause is { code: string } => {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' && code in reasonsByCode;
  });
  if (known) return reasonsByCode[known.code]!;
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 120) || 'network error';
}

/** The URL without its query (which carries the session crumb), for logs. */
export function describeUrl(input: string | URL | Request): string {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return href.split('?')[0]!;
}

function isYahooErrorEnvelope(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null) return false;
    const keys = Object.keys(parsed);
    if (keys.length !== 1) return false;
    const error = (parsed as Record<string, { error?: { code?: unknown } } | null>)[keys[0]!]?.error;
    return typeof error?.code === 'string';
  } catch {
    return false;
  }
}

function statusReason(response: Response): string {
  const text = response.statusText ? ` ${response.statusText}` : '';
  return `HTTP ${response.status}${text}`;
}

export function createResilientFetch(options: ResilientFetchOptions): FetchFunction {
  return async (input, init) => {
    const callerSignal = init?.signal ?? undefined;
    for (let attempt = 0; ; attempt += 1) {
      callerSignal?.throwIfAborted();
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
      let failure: YahooUnreachableError;
      try {
        const response = await options.fetch(input, { ...init, signal });
        if (response.status >= 500 || response.status === 429) {
          await response.arrayBuffer().catch(() => undefined);
          failure = new YahooUnreachableError(statusReason(response));
        } else if (response.status >= 400) {
          // Yahoo's JSON error envelope ({"chart":{"error":{"code":"Not Found",…}}})
          // carries the meaning (unknown symbol, no fundamentals): let the library read it.
          const body = await response.clone().text();
          if (isYahooErrorEnvelope(body)) return response;
          throw new YahooUnreachableError(statusReason(response));
        } else {
          return response;
        }
      } catch (error) {
        if (error instanceof YahooUnreachableError) throw error;
        // A replay with no recorded answer is final, and must keep its own message.
        if (error instanceof CassetteError) throw error;
        if (callerSignal?.aborted) throw error;
        failure = timeout.aborted
          ? new YahooUnreachableError(`timed out after ${formatSeconds(options.timeoutMs)}`, { cause: error })
          : new YahooUnreachableError(networkReason(error), { cause: error });
      }
      if (attempt >= options.retries) throw failure;
      const delay = options.retryDelayMs * 2 ** attempt;
      options.debug(`yahoo: ${describeUrl(input)} failed (${failure.reason}); retrying in ${delay} ms`);
      await sleep(delay, undefined, callerSignal ? { signal: callerSignal } : undefined);
    }
  };
}
