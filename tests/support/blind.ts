import { renderSnapshotText } from '../../src/market/snapshot-text.js';
import type { Bar, MarketSnapshot } from '../../src/market/types.js';
import { snapshotFromBars } from './market.js';

/**
 * What a blind run must never send a model, taken from the real snapshot's own data: the
 * ticker, the company name (and its first word), every bar's calendar day and year, and
 * every raw price level as the block would write it (two decimals).
 */
export function forbiddenStrings(snapshot: MarketSnapshot): { words: string[]; prices: string[] } {
  const { identity, indicators, quote } = snapshot;
  const days = snapshot.bars.map((bar) => bar.date);
  const years = [...new Set(days.map((day) => day.slice(0, 4)))];
  const name = identity.name ?? '';
  const words = [snapshot.symbol, name, name.split(' ')[0] ?? '', ...days, ...years, snapshot.asOf.slice(0, 10)];
  const levels = [
    ...snapshot.bars.flatMap((bar) => [bar.open, bar.high, bar.low, bar.close]),
    indicators.lastClose,
    indicators.sma20,
    indicators.sma50,
    indicators.sma200,
    indicators.atr14,
    indicators.high52w,
    indicators.low52w,
    indicators.support,
    indicators.resistance,
    quote.price,
    quote.fiftyTwoWeekHigh,
    quote.fiftyTwoWeekLow,
    quote.targetMeanPrice,
  ];
  const prices = [
    ...new Set(
      levels
        .filter((value): value is number => typeof value === 'number' && value >= 10)
        .map((value) => value.toFixed(2)),
    ),
  ];
  return { words: [...new Set(words.filter((word) => word.length > 0))], prices };
}

/** The forbidden strings found in `text`; prices only as whole numbers (not inside a longer one). */
export function leaksIn(text: string, snapshot: MarketSnapshot): string[] {
  const { words, prices } = forbiddenStrings(snapshot);
  const found = words.filter((word) => new RegExp(`(?<![A-Za-z0-9])${escape(word)}(?![A-Za-z0-9])`, 'i').test(text));
  for (const price of prices) if (new RegExp(`(?<![\\d.])${escape(price)}(?!\\d)`).test(text)) found.push(price);
  return found;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** 300 sessions over two calendar years, prices near 347 (nothing a blind block would write by chance). */
export function namedSnapshot(): MarketSnapshot {
  const bars: Bar[] = Array.from({ length: 300 }, (_, index) => {
    const day = new Date(Date.UTC(2026, 10, 27) - (299 - index) * 86_400_000).toISOString().slice(0, 10);
    const close = 331.37 + 14 * Math.sin(index / 9) + index / 20;
    return {
      date: day,
      open: close - 1.3,
      high: close + 2.9,
      low: close - 3.1,
      close,
      adjClose: close,
      volume: 3_100_000 + index,
    };
  });
  const base = snapshotFromBars(bars, 'NVDQ');
  const data = {
    ...base,
    identity: { ...base.identity, name: 'Nvidiq Corporation', symbol: 'NVDQ', industry: 'Semiconductors' },
    warnings: ['NVDQ: Yahoo returned no analyst target for Nvidiq Corporation on 2026-11-27 (last price 347.51)'],
  };
  return { ...data, text: renderSnapshotText(data) };
}
