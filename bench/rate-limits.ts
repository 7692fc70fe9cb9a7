/**
 * P8: throughput at the provider's rate limit. The loopback model server enforces a
 * tokens-per-window and requests-per-window quota the way OpenAI does (prompt plus
 * max_tokens charged at admission, x-ratelimit-* headers, 429 + retry-after-ms), with a
 * window of a few seconds so a bench "minute" is short. A universe runs into it in one
 * process, then on two workers sharing one Redis.
 *
 * The ratio is the tokens the server admitted over what the quota could have admitted
 * in the same time: the bucket's capacity at the start plus its refill from the first
 * admission to the last.
 */
import type { QuotaSettings } from '../testkit/quota.js';
import { tickerOf, type ModelServer } from './model-server.js';

export interface QuotaFigure {
  tickers: number;
  ok: number;
  failures: string[];
  /** Requests the server answered, 429s included, and the 429s. */
  requests: number;
  refused: number;
  admittedTokens: number;
  /** What the quota could have admitted between the first admission and the last. */
  possibleTokens: number;
  wallMs: number;
}

/**
 * The figure of the model that used the most of its quota (OpenAI's limits are per model,
 * and the desks' model carries most of the tokens), leaving out the warm-up analysis
 * (ticker WARM: the first in a process loads the SDKs); 429s counted over every model.
 */
export function quotaFigure(
  server: Pick<ModelServer, 'quotas' | 'admittedIndexes' | 'requests'>,
  settings: Pick<QuotaSettings, 'tokens' | 'windowMs'>,
  run: { tickers: number; ok: number; failures: string[]; wallMs: number },
): QuotaFigure & { model: string } {
  const all = [...server.quotas.values()];
  const [model, busiest] = [...server.quotas].sort((a, b) => b[1].admittedTokens - a[1].admittedTokens)[0] ?? [];
  const indexes = server.admittedIndexes.get(model ?? '') ?? [];
  const counted = (busiest?.admissions ?? []).filter(
    (_, position) => tickerOf(server.requests[indexes[position]!]!) !== 'WARM',
  );
  const spanMs = counted.length > 0 ? counted.at(-1)!.at - counted[0]!.at : 0;
  return {
    ...run,
    model: model ?? 'none',
    requests: all.reduce((total, quota) => total + quota.admittedRequests + quota.refused, 0),
    refused: all.reduce((total, quota) => total + quota.refused, 0),
    admittedTokens: counted.reduce((total, admission) => total + admission.tokens, 0),
    possibleTokens: settings.tokens + (settings.tokens * spanMs) / settings.windowMs,
  };
}

export const achievedRatio = (figure: QuotaFigure) => figure.admittedTokens / figure.possibleTokens;
export const refusedShare = (figure: QuotaFigure) => (figure.requests === 0 ? 0 : figure.refused / figure.requests);

/** "0.94 (1,234,567 of 1,313,000 tokens), 0.4 % 429 (5 of 1,401), 200/200 ok, 38.1 s" */
export function describeQuotaFigure(figure: QuotaFigure): string {
  const count = (value: number) => Math.round(value).toLocaleString('en-US');
  return (
    `${achievedRatio(figure).toFixed(2)} (${count(figure.admittedTokens)} of ${count(figure.possibleTokens)} tokens${'model' in figure ? ` of ${String(figure.model)}` : ''}), ` +
    `${(refusedShare(figure) * 100).toFixed(1)} % 429 (${figure.refused} of ${count(figure.requests)}), ` +
    `${figure.ok}/${figure.tickers} ok, ${(figure.wallMs / 1000).toFixed(1)} s`
  );
}
