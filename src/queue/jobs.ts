import { z } from 'zod';
import { isoDay } from '../clock.js';
import { tickerSchema } from '../market/ticker.js';

export { defaultAttempts, defaultBackoffMs, defaultQueueName, keepFinishedSeconds } from './defaults.js';

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
