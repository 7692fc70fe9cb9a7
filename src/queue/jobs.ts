import type { RunRequestInput } from '../run/request.js';

export { defaultAttempts, defaultBackoffMs, defaultQueueName, keepFinishedSeconds } from './defaults.js';

/**
 * One job per (ticker, as-of day): enqueuing the same pair twice makes one job. BullMQ
 * uses ':' as its key separator and refuses it in custom ids (and integer-like ids),
 * so the pair is joined with '@', which no ticker contains.
 */
export function jobIdFor(ticker: string, day: string): string {
  return `${ticker}@${day}`;
}

/**
 * A job's data is a RunRequest (src/run/request.ts), JSON as enqueued; a worker parses
 * it again, since anyone can add to a queue, and refuses a version it does not know.
 */
export type AnalysisJobData = RunRequestInput;
