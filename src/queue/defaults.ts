/**
 * The queue's defaults, in a module with no imports so that `--help` can show them
 * without loading zod, bullmq or ioredis.
 */

/** The queue every worker and enqueue use unless --queue names another. */
export const defaultQueueName = 'autohedge';
export const defaultRedisUrl = 'redis://127.0.0.1:6379';
/** Attempts in all for transient failures, by default: waiting 5 s, 10 s, 20 s between (exponential back-off). */
export const defaultAttempts = 4;
export const defaultBackoffMs = 5_000;
/** How soon a dead worker's job goes back to the queue (about twice this). */
export const defaultStallIntervalMs = 15_000;
/** How long the whole queue pauses after a 429 from the model server. */
export const defaultRateLimitPauseMs = 10_000;
/** Finished jobs stay a week, so a repeated enqueue of the same day finds them and adds nothing. */
export const keepFinishedSeconds = 7 * 24 * 3600;
