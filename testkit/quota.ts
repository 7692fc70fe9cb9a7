/**
 * A provider's quota for the scripted OpenAI-compatible server: a request bucket and a
 * token bucket refilling continuously over `windowMs` (a minute at OpenAI; a few seconds
 * here, so a benchmark of a "minute" is short). Each request is charged at admission as
 * OpenAI charges it — its prompt (ceil(characters / 4)) plus its `max_tokens` in full —
 * and every answer carries OpenAI's headers; a request over either bucket is a 429
 * `rate_limit_exceeded` with `retry-after-ms` and nothing charged.
 *
 *   const quota = createQuota({ requests: 50, tokens: 40_000, windowMs: 5_000 });
 *   startOpenAIServer((body, index) => quota.admit(body) ?? textAnswer('…', { headers: quota.headers() }));
 */
import { errorReply, type Reply } from './openai-server.js';

export interface QuotaSettings {
  /** Requests and tokens per window. */
  requests: number;
  tokens: number;
  windowMs: number;
  /** Completion tokens charged for a request that names no max_tokens (OpenAI: the model's maximum). */
  defaultMaxTokens?: number;
  now?: () => number;
}

export interface Quota {
  /** Charges the request, or returns the 429 to answer it with. */
  admit(body: unknown): Reply | null;
  /** The x-ratelimit-* headers as of now, for an answer. */
  headers(): Record<string, string>;
  /** What was admitted and refused so far. */
  readonly admittedTokens: number;
  readonly admittedRequests: number;
  readonly refused: number;
  /** Date.now() of the first and the last admission. */
  readonly firstAdmittedAt: number | undefined;
  readonly lastAdmittedAt: number | undefined;
  /** Every admission: when, and the tokens charged. */
  readonly admissions: ReadonlyArray<{ at: number; tokens: number }>;
}

/** Characters a model reads from a request: message text (string or text parts), tool-call arguments, tool and schema definitions. */
export function requestCharacters(body: unknown): number {
  const request = (body ?? {}) as { messages?: unknown[]; tools?: unknown[]; response_format?: unknown };
  let characters = 0;
  for (const raw of request.messages ?? []) {
    const message = raw as {
      content?: unknown;
      tool_calls?: Array<{ function?: { name?: string; arguments?: string } }>;
    };
    if (typeof message.content === 'string') characters += message.content.length;
    else if (Array.isArray(message.content)) {
      for (const part of message.content as Array<{ text?: unknown }>)
        if (typeof part.text === 'string') characters += part.text.length;
    }
    for (const call of message.tool_calls ?? [])
      characters += (call.function?.name ?? '').length + (call.function?.arguments ?? '').length;
  }
  if (request.tools && request.tools.length > 0) characters += JSON.stringify(request.tools).length;
  if (request.response_format) characters += JSON.stringify(request.response_format).length;
  return characters;
}

export const tokensOf = (characters: number) => Math.ceil(characters / 4);

/** ceil(characters / 4) of the text a model reads. */
export function promptTokensOf(body: unknown): number {
  return tokensOf(requestCharacters(body));
}

export function createQuota(settings: QuotaSettings): Quota {
  const now = settings.now ?? (() => Date.now());
  const buckets = {
    requests: { capacity: settings.requests, level: settings.requests },
    tokens: { capacity: settings.tokens, level: settings.tokens },
  };
  let updatedAt = now();
  const totals = {
    admittedTokens: 0,
    admittedRequests: 0,
    refused: 0,
    firstAdmittedAt: undefined as number | undefined,
    lastAdmittedAt: undefined as number | undefined,
  };
  const admissions: Array<{ at: number; tokens: number }> = [];
  const refill = () => {
    const at = now();
    for (const bucket of Object.values(buckets))
      bucket.level = Math.min(bucket.capacity, bucket.level + ((at - updatedAt) * bucket.capacity) / settings.windowMs);
    updatedAt = at;
  };
  const msUntil = (bucket: { capacity: number; level: number }, amount: number) =>
    Math.max(0, Math.ceil(((amount - bucket.level) * settings.windowMs) / bucket.capacity));
  const headers = (): Record<string, string> => {
    refill();
    const reset = (bucket: { capacity: number; level: number }) => goDuration(msUntil(bucket, bucket.capacity));
    return {
      'x-ratelimit-limit-requests': String(settings.requests),
      'x-ratelimit-limit-tokens': String(settings.tokens),
      'x-ratelimit-remaining-requests': String(Math.max(0, Math.floor(buckets.requests.level))),
      'x-ratelimit-remaining-tokens': String(Math.max(0, Math.floor(buckets.tokens.level))),
      'x-ratelimit-reset-requests': reset(buckets.requests),
      'x-ratelimit-reset-tokens': reset(buckets.tokens),
    };
  };

  return {
    admit(body) {
      refill();
      const maxTokens = (body as { max_completion_tokens?: number; max_tokens?: number } | null) ?? {};
      const cost =
        promptTokensOf(body) +
        (maxTokens.max_completion_tokens ?? maxTokens.max_tokens ?? settings.defaultMaxTokens ?? 4_096);
      const requestWait = msUntil(buckets.requests, 1);
      const tokenWait = msUntil(buckets.tokens, Math.min(cost, buckets.tokens.capacity));
      if (requestWait > 0 || tokenWait > 0) {
        totals.refused += 1;
        const which = tokenWait >= requestWait ? 'tokens' : 'requests';
        return errorReply(
          429,
          {
            message: `Rate limit reached for ${which} per min. Limit ${which === 'tokens' ? settings.tokens : settings.requests}. Please try again in ${goDuration(Math.max(requestWait, tokenWait))}.`,
            type: which,
            code: 'rate_limit_exceeded',
          },
          { ...headers(), 'retry-after-ms': String(Math.max(requestWait, tokenWait)) },
        );
      }
      buckets.requests.level -= 1;
      buckets.tokens.level -= cost;
      totals.admittedTokens += cost;
      totals.admittedRequests += 1;
      totals.firstAdmittedAt ??= now();
      totals.lastAdmittedAt = now();
      admissions.push({ at: now(), tokens: cost });
      return null;
    },
    headers,
    get admittedTokens() {
      return totals.admittedTokens;
    },
    get admittedRequests() {
      return totals.admittedRequests;
    },
    get refused() {
      return totals.refused;
    },
    get firstAdmittedAt() {
      return totals.firstAdmittedAt;
    },
    get lastAdmittedAt() {
      return totals.lastAdmittedAt;
    },
    admissions,
  };
}

/** OpenAI writes its resets the Go way: `6m0s`, `1.5s`, `20ms`. */
export function goDuration(ms: number): string {
  if (ms < 1_000) return `${Math.ceil(ms)}ms`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = (ms - minutes * 60_000) / 1_000;
  const secondsText = `${Number(seconds.toFixed(3))}s`;
  return minutes > 0 ? `${minutes}m${secondsText}` : secondsText;
}
