import { z } from 'zod';
import { isoDay } from '../clock.js';
import { tickerSchema } from '../market/ticker.js';

/** The queue every worker and enqueue use unless --queue names another. */
export const defaultQueueName = 'autohedge';

/**
 * One job per (ticker, as-of day): enqueuing the same pair twice makes one job. BullMQ
 * uses ':' as its key separator and refuses it in custom ids (and integer-like ids),
 * so the pair is joined with '@', which no ticker contains.
 */
export function jobIdFor(ticker: string, asOf: Date): string {
  return `${ticker}@${isoDay(asOf)}`;
}

/** What a job carries; a worker validates it again, since anyone can add to a queue. */
export const jobDataSchema = z.object({
  ticker: tickerSchema,
  /** ISO instant: the run's clock. */
  asOf: z.iso.datetime(),
});
export type AnalysisJobData = z.infer<typeof jobDataSchema>;

/** Attempts in all for transient failures, by default: waiting 5 s, 10 s, 20 s between (exponential back-off). */
export const defaultAttempts = 4;
export const defaultBackoffMs = 5_000;
/** Finished jobs stay a week, so a repeated enqueue of the same day finds them and adds nothing. */
export const keepFinishedSeconds = 7 * 24 * 3600;
