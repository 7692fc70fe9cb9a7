/**
 * Market data: a grounded snapshot of one symbol from the configured sources. Nothing
 * here imports a vendor's SDK statically; each source loads its own on first use.
 */
export { createMarketData, type MarketDataOptions, type SnapshotCalendar } from './service.js';
export { configuredSources, demoSources, type SourcesOptions } from './sources/index.js';
export type { MarketLogger, MarketSource, SnapshotVendors } from './source.js';
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
