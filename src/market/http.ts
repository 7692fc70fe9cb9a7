import { setTimeout as sleep } from 'node:timers/promises';
import { formatSeconds } from '../clock.js';
import { CassetteError, findCause } from '../errors.js';

/**
 * The fetch every market source goes through (and the one a vendor's SDK is given): a
 * timeout per attempt, retries with backoff for network failures, 5xx and 429, and one
 * typed error once the vendor cannot be reached. An error response the vendor's own
 * code should read (its JSON error envelope) is passed through when the source says so;
 * any other becomes a thrown SourceUnreachableError, so an SDK never prints it. A data
 * request answered 200 with an HTML page (a consent wall, a captcha, a maintenance page)
 * is an UnexpectedResponseError: never parsed into a row of empty prices.
 */

export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The vendor could not be reached or refused to serve us, after retries. `reason` is short and safe to show. */
export class SourceUnreachableError extends Error {
  constructor(
    readonly label: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`could not reach ${label} (${reason})`, options);
    this.name = 'SourceUnreachableError';
  }
}

/** The vendor answered, but not with data (an HTML page with HTTP 200). */
export class UnexpectedResponseError extends Error {
  constructor(
    readonly label: string,
    readonly reason: string,
  ) {
    super(`unexpected response from ${label} (${reason})`);
    this.name = 'UnexpectedResponseError';
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
  /** The vendor's name in errors, e.g. "Tiingo". */
  label: string;
  /** An error body the vendor's own code reads (its JSON error envelope): passed through, not thrown. */
  isErrorEnvelope?: (body: string) => boolean;
  /** Data requests, whose 200 must not be an HTML page (a vendor's session pages are HTML). */
  expectsData?: (url: string) => boolean;
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

function statusReason(response: Response): string {
  const text = response.statusText ? ` ${response.statusText}` : '';
  return `HTTP ${response.status}${text}`;
}

function isHtml(response: Response): boolean {
  return /text\/html/i.test(response.headers.get('content-type') ?? '');
}

export function createResilientFetch(options: ResilientFetchOptions): FetchFunction {
  const { label } = options;
  return async (input, init) => {
    const callerSignal = init?.signal ?? undefined;
    for (let attempt = 0; ; attempt += 1) {
      callerSignal?.throwIfAborted();
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
      let failure: SourceUnreachableError;
      try {
        const response = await options.fetch(input, { ...init, signal });
        if (response.status >= 500 || response.status === 429) {
          await response.arrayBuffer().catch(() => undefined);
          failure = new SourceUnreachableError(label, statusReason(response));
        } else if (response.status >= 400) {
          // A vendor's JSON error envelope carries the meaning (unknown symbol, no
          // fundamentals): let its own code read it.
          const body = await response.clone().text();
          if (options.isErrorEnvelope?.(body)) return response;
          throw new SourceUnreachableError(label, statusReason(response));
        } else if (isHtml(response) && options.expectsData?.(describeUrl(input))) {
          await response.arrayBuffer().catch(() => undefined);
          throw new UnexpectedResponseError(label, `an HTML page with ${statusReason(response)}`);
        } else {
          return response;
        }
      } catch (error) {
        if (error instanceof SourceUnreachableError || error instanceof UnexpectedResponseError) throw error;
        // A replay with no recorded answer is final, and must keep its own message.
        if (error instanceof CassetteError) throw error;
        if (callerSignal?.aborted) throw error;
        failure = timeout.aborted
          ? new SourceUnreachableError(label, `timed out after ${formatSeconds(options.timeoutMs)}`, { cause: error })
          : new SourceUnreachableError(label, networkReason(error), { cause: error });
      }
      if (attempt >= options.retries) throw failure;
      const delay = options.retryDelayMs * 2 ** attempt;
      options.debug(`${label}: ${describeUrl(input)} failed (${failure.reason}); retrying in ${delay} ms`);
      await sleep(delay, undefined, callerSignal ? { signal: callerSignal } : undefined);
    }
  };
}
