/**
 * The source contract: one vendor of market data implements what it can, and returns
 * autohedge's own types, in major currency units, with the currency named. The snapshot
 * service (`createMarketData`, service.ts) asks the sources in order and records which
 * vendor answered each part. Vendor facts (URLs, headers, quirks, its name) stay in
 * `sources/<vendor>/`. Shaped after OpenBB's `Fetcher` (query in, our types out) and
 * tested the same way: every source against its recorded answers
 * (tests/market/sources-conformance.test.ts).
 */
import type { Fundamentals, SplitEvent } from './fundamentals-types.js';
import type { Bar, Identity, QuoteStats } from './types.js';

export interface MarketLogger {
  /** Library chatter and retries: shown only when the user asks for verbose output. */
  debug(message: string): void;
  /** Something the user should know that is not part of the data (e.g. the cache is unwritable). */
  warn(message: string): void;
}

export interface SourceRequest {
  ticker: string;
  signal?: AbortSignal;
}

export interface BarsRequest extends SourceRequest {
  /** First day wanted, YYYY-MM-DD, in the exchange's zone. */
  from: string;
  /** Last day wanted, YYYY-MM-DD (inclusive). */
  to: string;
}

export interface QuoteRequest extends SourceRequest {
  /** The run's clock: the last day of bars is its day; the bars reach a year and a week back. */
  asOf: Date;
  /** A run as of a past close: the vendor may skip what exists only as of today. */
  historical: boolean;
}

export interface FundamentalsRequest extends SourceRequest {
  /** ISO UTC instant of the as-of session's close: nothing accepted after it is known. */
  asOfClose: string;
  /** True for a run of a past session (`--as-of`): answers may be cached for good. */
  historical: boolean;
  /** The close as traded on the as-of day, for the valuation (major units). */
  asTradedClose: number | null;
  /** Splits through today, so filed per-share figures and share counts are put on D's basis (edgar). */
  splits?: readonly SplitEvent[];
}

/** A quote in minor units (pence) converted to major ones (pounds): said in the data notes and the block. */
export interface UnitConversion {
  /** As the vendor quoted it, e.g. `GBp`. */
  quoted: string;
  /** What the figures are now in, e.g. `GBP`. */
  currency: string;
  /** quoted × factor = major, e.g. 0.01. */
  factor: number;
}

export interface DailyBars {
  bars: Bar[];
  /** ISO 4217 code in major units (GBP, not GBp). */
  currency: string | null;
  /** Set when the vendor quoted the bars in minor units and they were converted. */
  conversion?: UnitConversion;
  /** Notes about these bars only (e.g. the split basis), for the data notes. */
  notes?: string[];
  /** `as-traded`: on the split basis of the window's last session, not today's (see MarketSnapshot.splitBasis). */
  splitBasis?: 'as-traded';
}

/**
 * The quote, the key statistics and the profile of one symbol with a year of daily bars,
 * as one vendor answers them together (src/market/sources/yahoo: three requests in parallel).
 * Every price in major units of `identity.currency`.
 */
export interface SourceQuote {
  identity: Identity;
  quote: QuoteStats;
  bars: Bar[];
  conversion?: UnitConversion;
  /** The vendor's own notes (a part unusable, a schema slip). */
  notes: string[];
  /** False when a part was out of reach: served once, never cached. */
  complete: boolean;
  /** `as-traded`: the bars are on the split basis of their last session, not today's. */
  splitBasis?: 'as-traded';
}

export interface MarketSource {
  /** Stable id, e.g. 'yahoo', 'tiingo', 'sec-edgar', 'demo'. */
  readonly vendor: string;
  /** The name the agents and the reports read, e.g. "SEC EDGAR (as filed)". */
  readonly label: string;
  /** The name in parentheses after a figure, e.g. the short name in "52-week range (…)". Defaults to `label`. */
  readonly shortLabel?: string;
  /** Quote, key statistics, profile and a year of bars, for a snapshot. */
  quote?(request: QuoteRequest): Promise<SourceQuote>;
  /** Daily bars for a range: the snapshot's fallback and `evaluate`'s one request. */
  bars?(request: BarsRequest): Promise<DailyBars>;
  fundamentals?(request: FundamentalsRequest): Promise<Fundamentals | undefined>;
  /** Split events between two days: the share basis of filed per-share figures (src/market/fundamentals-basis.ts). */
  splits?(request: BarsRequest): Promise<SplitEvent[]>;
  /** The vendor's symbol for a currency pair (1 `from` in `to`), whose bars are its closes. */
  fxSymbol?(from: string, to: string): string;
  /** The symbol a recorded bars request of this vendor asked for (which tickers a cassette covers). */
  symbolOfUrl?(url: string): string | undefined;
}

/** Who answered one part of a snapshot. */
export interface PartVendor {
  vendor: string;
  label: string;
  shortLabel: string;
  /** True when the part was read from the disk cache, not asked for. */
  cached: boolean;
}

/** Which vendor answered each part of a snapshot (null: no source had it). */
export interface SnapshotVendors {
  bars: PartVendor;
  quote: PartVendor | null;
  profile: PartVendor | null;
}

export function partVendor(source: MarketSource, cached = false): PartVendor {
  return { vendor: source.vendor, label: source.label, shortLabel: source.shortLabel ?? source.label, cached };
}

/**
 * The same source under another name: the demo replays synthetic answers in one
 * vendor's protocol, and its data is labelled "synthetic demo data", not that vendor's.
 */
export function relabelSource(source: MarketSource, vendor: string, label: string, shortLabel = label): MarketSource {
  return { ...source, vendor, label, shortLabel };
}
