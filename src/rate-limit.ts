/**
 * The rate-limit state a server announces in its headers (parsed in
 * src/llm/rate-limit-headers.ts): shared, because ModelError (src/errors.ts) carries it.
 */

/** One of the two quotas a server announces. */
export interface QuotaState {
  /** The quota per window (OpenAI: per minute). */
  limit?: number;
  /** What is left of it now. */
  remaining?: number;
  /** How long until the window is full again. */
  resetMs?: number;
}

export interface RateLimitInfo {
  /** How long the server asks us to wait before the next request (a 429's retry-after). */
  retryAfterMs?: number;
  requests: QuotaState;
  tokens: QuotaState;
}
