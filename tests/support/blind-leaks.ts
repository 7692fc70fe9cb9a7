import type { MarketSnapshot } from '../../src/market/types.js';

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
