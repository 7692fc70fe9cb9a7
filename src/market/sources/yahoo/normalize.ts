import { z } from 'zod';
import { sanitizeDeep, sanitizeText } from '../../../sanitize.js';
import { minorUnitOf } from '../../currency.js';
import type { Bar, Identity, QuoteStats } from '../../types.js';

/** Yahoo's recommendation key is free text too. */
function nullableSanitized(text: string | null): string | null {
  return text === null ? null : sanitizeText(text);
}

/**
 * Yahoo's raw shapes → our types. yahoo-finance2 validates and coerces its results,
 * but when its validation fails we fall back to the raw body, where a number may still
 * be `{ raw, fmt }` and a time an epoch in seconds; every field here accepts both, and
 * anything else becomes null rather than a wrong number.
 */

export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'object' && value !== null && 'raw' in value) return toNumber((value as { raw: unknown }).raw);
  return null;
}

export function toText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** ISO timestamp from a Date, epoch seconds (or milliseconds), or an ISO string. */
export function toIsoTime(value: unknown): string | null {
  let milliseconds: number | null = null;
  if (value instanceof Date) milliseconds = value.getTime();
  else if (typeof value === 'string') milliseconds = Date.parse(value);
  else {
    const epoch = toNumber(value);
    if (epoch !== null) milliseconds = epoch < 1e11 ? epoch * 1000 : epoch;
  }
  if (milliseconds === null || !Number.isFinite(milliseconds)) return null;
  return new Date(milliseconds).toISOString();
}

const number = z.unknown().optional().transform(toNumber);
const text = z.unknown().optional().transform(toText);
const time = z.unknown().optional().transform(toIsoTime);

/** A module that is absent or not an object reads as "no module", never as a failure. */
function module<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object(shape).nullable().optional().catch(null);
}

/** The fields the v7 quote API and quoteSummary's modules name and mean alike. */
const names = { longName: text, shortName: text, quoteType: text };
const regularMarket = {
  currency: text,
  regularMarketPrice: number,
  regularMarketTime: time,
  regularMarketChange: number,
};
const valuation = {
  marketCap: number,
  trailingPE: number,
  forwardPE: number,
  beta: number,
  fiftyTwoWeekHigh: number,
  fiftyTwoWeekLow: number,
};

export const quoteSchema = z.object({
  symbol: text,
  ...names,
  displayName: text,
  exchange: text,
  fullExchangeName: text,
  ...regularMarket,
  /** Percent in the v7 quote API (−3.45 means −3.45 %). */
  regularMarketChangePercent: number,
  ...valuation,
  averageDailyVolume3Month: number,
  /** Percent in the v7 quote API (0.42 means 0.42 %). */
  dividendYield: number,
  trailingAnnualDividendYield: number,
  averageAnalystRating: text,
  /** The currency of the statements (GBP for a listing quoted in GBp). */
  financialCurrency: text,
  /** The last or next earnings announcement Yahoo knows of (±2 days, says Yahoo). */
  earningsTimestamp: time,
});
export type RawQuote = z.infer<typeof quoteSchema>;

export const summarySchema = z.object({
  price: module({
    ...names,
    exchangeName: text,
    ...regularMarket,
    /** A fraction in quoteSummary (−0.0011 means −0.11 %). */
    regularMarketChangePercent: number,
    marketCap: number,
    averageDailyVolume3Month: number,
  }),
  summaryDetail: module({
    ...valuation,
    averageVolume: number,
    /** A fraction in quoteSummary (0.0041 means 0.41 %). */
    dividendYield: number,
    trailingAnnualDividendYield: number,
  }),
  defaultKeyStatistics: module({
    forwardPE: number,
    beta: number,
    profitMargins: number,
  }),
  financialData: module({
    targetMeanPrice: number,
    recommendationKey: text,
    recommendationMean: number,
    numberOfAnalystOpinions: number,
    profitMargins: number,
    revenueGrowth: number,
    debtToEquity: number,
    financialCurrency: text,
  }),
  assetProfile: module({
    sector: text,
    sectorDisp: text,
    industry: text,
    industryDisp: text,
  }),
  quoteType: module({ ...names, exchange: text }),
});
export type RawSummary = z.infer<typeof summarySchema>;

const series = z
  .array(z.unknown())
  .optional()
  .catch(undefined)
  .transform((values) => (values ?? []).map(toNumber));

export const chartSchema = z.object({
  meta: z
    .object({
      symbol: text,
      currency: text,
      exchangeName: text,
      fullExchangeName: text,
      instrumentType: text,
      longName: text,
      shortName: text,
      regularMarketPrice: number,
      regularMarketTime: time,
      fiftyTwoWeekHigh: number,
      fiftyTwoWeekLow: number,
      /** Seconds east of UTC for the exchange, used to date each session. */
      gmtoffset: number,
    })
    .catch({
      symbol: null,
      currency: null,
      exchangeName: null,
      fullExchangeName: null,
      instrumentType: null,
      longName: null,
      shortName: null,
      regularMarketPrice: null,
      regularMarketTime: null,
      fiftyTwoWeekHigh: null,
      fiftyTwoWeekLow: null,
      gmtoffset: null,
    }),
  timestamp: series,
  indicators: z
    .object({
      quote: z.array(z.object({ open: series, high: series, low: series, close: series, volume: series })).catch([]),
      adjclose: z
        .array(z.object({ adjclose: series }))
        .optional()
        .catch(undefined),
    })
    .catch({ quote: [] }),
});
export type RawChart = z.infer<typeof chartSchema>;
export type ChartMeta = RawChart['meta'];

/** Parse a raw body; an unusable one (not an object) is null. */
export function parseQuote(value: unknown): RawQuote | null {
  const parsed = quoteSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function parseSummary(value: unknown): RawSummary | null {
  const parsed = summarySchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function parseChart(value: unknown): RawChart | null {
  const parsed = chartSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * Daily bars from a chart result. Each session is dated in the exchange's time zone
 * (Yahoo stamps a bar with the session's opening instant, which for Asia-Pacific
 * markets falls on the previous UTC day). A repeated date keeps the later bar (Yahoo
 * sometimes appends a live bar for the current session). Bars after `lastDay` are dropped.
 */
export function barsFromChart(chart: RawChart, lastDay?: string): Bar[] {
  const quote = chart.indicators.quote[0];
  const adjusted = chart.indicators.adjclose?.[0]?.adjclose ?? [];
  const offsetSeconds = chart.meta.gmtoffset ?? 0;
  const byDate = new Map<string, Bar>();
  chart.timestamp.forEach((timestamp, index) => {
    if (timestamp === null) return;
    const date = new Date((timestamp + offsetSeconds) * 1000).toISOString().slice(0, 10);
    if (lastDay !== undefined && date > lastDay) return;
    byDate.set(date, {
      date,
      open: quote?.open[index] ?? null,
      high: quote?.high[index] ?? null,
      low: quote?.low[index] ?? null,
      close: quote?.close[index] ?? null,
      adjClose: adjusted[index] ?? null,
      volume: quote?.volume[index] ?? null,
    });
  });
  return [...byDate.values()].sort((left, right) => (left.date < right.date ? -1 : left.date > right.date ? 1 : 0));
}

function first<T>(...values: Array<T | null | undefined>): T | null {
  for (const value of values) if (value !== null && value !== undefined) return value;
  return null;
}

function scaled(value: number | null | undefined, factor: number): number | null {
  return value === null || value === undefined ? null : value * factor;
}

export interface RawSources {
  quote: RawQuote | null;
  summary: RawSummary | null;
  meta: ChartMeta | null;
}

/** Names, exchanges and sectors are Yahoo's text, not ours: sanitised where they enter. */
export function identityFrom(symbol: string, { quote, summary, meta }: RawSources): Identity {
  return sanitizeDeep({
    symbol,
    name: first(
      quote?.longName,
      quote?.shortName,
      summary?.price?.longName,
      summary?.price?.shortName,
      summary?.quoteType?.longName,
      summary?.quoteType?.shortName,
      meta?.longName,
      meta?.shortName,
      quote?.displayName,
    ),
    exchange: first(
      quote?.fullExchangeName,
      summary?.price?.exchangeName,
      meta?.fullExchangeName,
      quote?.exchange,
      meta?.exchangeName,
      summary?.quoteType?.exchange,
    ),
    currency: first(quote?.currency, summary?.price?.currency, meta?.currency),
    quoteType: first(quote?.quoteType, summary?.price?.quoteType, summary?.quoteType?.quoteType, meta?.instrumentType),
    sector: first(summary?.assetProfile?.sectorDisp, summary?.assetProfile?.sector),
    industry: first(summary?.assetProfile?.industryDisp, summary?.assetProfile?.industry),
  });
}

/** "strong_buy" → "strong buy (mean 1.26 on 1 = strong buy … 5 = sell; 51 analysts)". */
export function recommendationFrom({ quote, summary }: RawSources): string | null {
  const financial = summary?.financialData;
  const key = financial?.recommendationKey;
  if (key && key !== 'none') {
    const details = [
      financial?.recommendationMean !== null && financial?.recommendationMean !== undefined
        ? `mean ${financial.recommendationMean.toFixed(2)} on 1 = strong buy … 5 = sell`
        : null,
      financial?.numberOfAnalystOpinions ? `${financial.numberOfAnalystOpinions} analysts` : null,
    ].filter((detail) => detail !== null);
    const label = key.replace(/_/g, ' ');
    return details.length > 0 ? `${label} (${details.join('; ')})` : label;
  }
  // The v7 quote carries "2.1 - Buy" when quoteSummary has no financialData.
  const rating = quote?.averageAnalystRating?.match(/^([\d.]+)\s*-\s*(.+)$/);
  if (rating) return `${rating[2]!.trim().toLowerCase()} (mean ${rating[1]} on 1 = strong buy … 5 = sell)`;
  return null;
}

/**
 * Yahoo divides a price in minor units by a per-share figure in the major one: OCDO.L at
 * 308.8 GBp over a 1.668 GBP book is a P/B of 185, not 1.85. Such a ratio is brought to
 * major units when the statements are in the listing's major currency, and dropped when
 * their currency is unknown or another (no figure 100× off reaches the desks).
 */
function perShareRatio(value: number | null, { quote, summary, meta }: RawSources): number | null {
  const conversion = minorUnitOf(first(quote?.currency, summary?.price?.currency, meta?.currency));
  if (value === null || !conversion) return value;
  const statements = first(quote?.financialCurrency, summary?.financialData?.financialCurrency);
  if (statements !== conversion.currency) return null;
  return Math.round(value * conversion.factor * 1e6) / 1e6;
}

export function quoteStatsFrom(sources: RawSources): QuoteStats {
  const { quote, summary, meta } = sources;
  const price = summary?.price;
  const detail = summary?.summaryDetail;
  const statistics = summary?.defaultKeyStatistics;
  const financial = summary?.financialData;
  return {
    price: first(quote?.regularMarketPrice, price?.regularMarketPrice, meta?.regularMarketPrice),
    priceTime: first(quote?.regularMarketTime, price?.regularMarketTime, meta?.regularMarketTime),
    change: first(quote?.regularMarketChange, price?.regularMarketChange),
    changePercent: first(quote?.regularMarketChangePercent, scaled(price?.regularMarketChangePercent, 100)),
    marketCap: first(quote?.marketCap, price?.marketCap, detail?.marketCap),
    trailingPE: perShareRatio(first(quote?.trailingPE, detail?.trailingPE), sources),
    forwardPE: perShareRatio(first(quote?.forwardPE, detail?.forwardPE, statistics?.forwardPE), sources),
    beta: first(detail?.beta, statistics?.beta, quote?.beta),
    fiftyTwoWeekHigh: first(quote?.fiftyTwoWeekHigh, detail?.fiftyTwoWeekHigh, meta?.fiftyTwoWeekHigh),
    fiftyTwoWeekLow: first(quote?.fiftyTwoWeekLow, detail?.fiftyTwoWeekLow, meta?.fiftyTwoWeekLow),
    averageVolume: first(quote?.averageDailyVolume3Month, detail?.averageVolume, price?.averageDailyVolume3Month),
    dividendYield: first(
      detail?.dividendYield,
      scaled(quote?.dividendYield, 0.01),
      detail?.trailingAnnualDividendYield,
      quote?.trailingAnnualDividendYield,
    ),
    targetMeanPrice: financial?.targetMeanPrice ?? null,
    recommendation: nullableSanitized(recommendationFrom(sources)),
    profitMargin: first(financial?.profitMargins, statistics?.profitMargins),
    revenueGrowth: financial?.revenueGrowth ?? null,
    debtToEquity: financial?.debtToEquity ?? null,
    earningsDate: quote?.earningsTimestamp ? quote.earningsTimestamp.slice(0, 10) : null,
  };
}
