/**
 * Market data: a grounded snapshot of one symbol. Nothing here imports yahoo-finance2
 * statically; yahoo.ts loads it on the first snapshot.
 */
export { createYahooMarketData, type MarketLogger, type YahooMarketDataOptions } from './yahoo.js';
export { computeIndicators } from './indicators.js';
export { renderSnapshotText } from './snapshot-text.js';
export { validateTicker } from './ticker.js';
export { createSnapshotCache, defaultCacheTtlMs, type SnapshotCache, type SnapshotCacheOptions } from './cache.js';
export type {
  Bar,
  BarsOptions,
  Identity,
  Indicators,
  MarketData,
  MarketSnapshot,
  QuoteStats,
  SnapshotOptions,
} from './types.js';
export { resolveAsOf, type HistoricalAsOf } from './as-of.js';
