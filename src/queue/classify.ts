import {
  AutohedgeError,
  CassetteError,
  ConfigError,
  DataError,
  ModelError,
  UsageError,
  errorMessage,
} from '../errors.js';
import type { AnalysisResult } from '../result/types.js';

/** What a worker does with a finished attempt. */
export type JobVerdict =
  | { kind: 'done'; result: AnalysisResult }
  /** A model call was refused with 429 after the pacer's retries: pause the queue (the server's retry-after, from the typed failure, when it sent one), and the attempt counts. */
  | { kind: 'rate-limited'; reason: string; retryAfterMs?: number }
  /** Worth another attempt after a back-off: a server error, a dropped connection, a timeout, market data unreachable. */
  | { kind: 'transient'; reason: string }
  /** No attempt can succeed: a malformed or unknown ticker, a bad key, an unknown model, an unknown request version. */
  | { kind: 'unrecoverable'; reason: string };

/**
 * An error no retry can pass, by its type (never by the CLI's exit codes): bad input or
 * configuration, an unknown ticker, a cassette that lacks the exchange, a model error
 * that is not retryable.
 */
export function isUnrecoverable(error: unknown): boolean {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof CassetteError) return true;
  if (error instanceof DataError) return error.kind === 'unknown-ticker';
  return error instanceof ModelError && !error.retryable;
}

/** The verdict on an analysis that threw instead of returning a result. */
export function verdictOnError(error: unknown): JobVerdict {
  const reason = describe(error);
  return isUnrecoverable(error) ? { kind: 'unrecoverable', reason } : { kind: 'transient', reason };
}

/**
 * The verdict on a returned result, read from its typed failure (src/pipeline/run-failure.ts),
 * never from thrown errors: a rate limit re-runs the whole job once the queue resumes, so
 * the result is complete rather than degraded; a bad key or an unknown model fails the job
 * at once; a failed run is retried only when its failure is retryable (a 5xx, a timeout),
 * never for the cap or a schema slip. A rate limit spends an attempt (src/queue/worker.ts),
 * and the retry reuses what the attempt paid for (src/queue/job-ledger.ts).
 */
export function verdictOnResult(result: AnalysisResult): JobVerdict {
  const failure = result.failure;
  if (failure === undefined) return { kind: 'done', result };
  if (failure.model?.kind === 'rate-limited') {
    const retryAfterMs = failure.model.retryAfterMs;
    return { kind: 'rate-limited', reason: failure.message, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }
  if (failure.model?.kind === 'authentication' || failure.model?.kind === 'model-not-found')
    return { kind: 'unrecoverable', reason: `ModelError: ${failure.message}` };
  if (result.status === 'failed' && failure.retryable) return { kind: 'transient', reason: failure.message };
  // Market data unreachable: a run without market data is not the analysis the job asked for, so
  // the data fetch is retried with back-off rather than the degraded run kept as done.
  if (failure.kind === 'market') return { kind: 'transient', reason: `market data missing: ${failure.message}` };
  return { kind: 'done', result };
}

function describe(error: unknown): string {
  const name = error instanceof AutohedgeError ? `${error.name}: ` : '';
  return `${name}${errorMessage(error).split('\n')[0]}`;
}
