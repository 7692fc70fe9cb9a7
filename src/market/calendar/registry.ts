import { UsageError } from '../../errors.js';
import { createExchangeCalendar, type ExchangeCalendar } from './calendar.js';
import type { Exchange } from './exchange.js';
import { xams } from './exchanges/xams.js';
import { xasx } from './exchanges/xasx.js';
import { xetr } from './exchanges/xetr.js';
import { xhkg } from './exchanges/xhkg.js';
import { xlon } from './exchanges/xlon.js';
import { xnys } from './exchanges/xnys.js';
import { xpar } from './exchanges/xpar.js';
import { xswx } from './exchanges/xswx.js';
import { xtks } from './exchanges/xtks.js';
import { xtse } from './exchanges/xtse.js';

/**
 * The exchanges autohedge knows. Adding one is its rules file in `exchanges/` and one
 * line here; its ticker suffix comes with it.
 */
export const exchanges: readonly Exchange[] = [xnys, xlon, xetr, xpar, xams, xswx, xtks, xhkg, xasx, xtse];

/** The US exchange: a ticker with no suffix, an index (^GSPC), a currency pair (EURUSD=X). */
export const defaultMic = 'XNYS';

/**
 * The one-letter ticker suffixes (the vendors' convention) for exchanges autohedge does not support. Any other single
 * letter after a dot is a share class (BRK.B), which quote vendors write BRK-B.
 */
const unsupportedLetterSuffixes = new Set(['F', 'V']);

const calendars = new Map<string, ExchangeCalendar>();

/** The calendar of an exchange by MIC (XNYS, XLON, …), one per process. */
export function exchangeCalendar(mic: string): ExchangeCalendar {
  const key = mic.trim().toUpperCase();
  let calendar = calendars.get(key);
  if (!calendar) {
    const exchange = exchanges.find((candidate) => candidate.mic === key);
    if (!exchange) {
      throw new UsageError(`unknown exchange '${mic}'; supported: ${exchanges.map((known) => known.mic).join(', ')}`);
    }
    calendar = createExchangeCalendar(exchange);
    calendars.set(key, calendar);
  }
  return calendar;
}

/** The supported suffixes, as a user types them (".L (XLON)"). */
export function supportedSuffixes(): string {
  const listed = exchanges.flatMap((exchange) =>
    exchange.suffixes.map((suffix) => (suffix === '' ? `none (${exchange.mic})` : `.${suffix} (${exchange.mic})`)),
  );
  return listed.join(', ');
}

/**
 * The exchange a ticker trades on, from its suffix in the quote vendors' conventions: none for the
 * US, `.L` London, `.T` Tokyo, … A one-letter class (`BRK.B`, `BRK-B`) is a US share.
 * An unknown suffix is a usage error that lists the supported ones.
 */
export function exchangeOf(ticker: string): Exchange {
  const symbol = ticker.trim().toUpperCase();
  const dot = symbol.lastIndexOf('.');
  const suffix = dot > 0 ? symbol.slice(dot + 1) : '';
  const shareClass = suffix.length === 1 && !unsupportedLetterSuffixes.has(suffix) && !isExchangeSuffix(suffix);
  const found = exchanges.find((exchange) => exchange.suffixes.includes(shareClass ? '' : suffix));
  if (!found) {
    throw new UsageError(`ticker ${symbol}: unknown exchange suffix '.${suffix}'; supported: ${supportedSuffixes()}`);
  }
  return found;
}

function isExchangeSuffix(suffix: string): boolean {
  return exchanges.some((exchange) => exchange.suffixes.includes(suffix));
}

/** The calendar of a ticker's exchange, or null for an unknown suffix (for checks that must not throw). */
export function findCalendarOf(ticker: string): ExchangeCalendar | null {
  try {
    return calendarOf(ticker);
  } catch {
    return null;
  }
}

/** The calendar of a ticker's exchange. */
export function calendarOf(ticker: string): ExchangeCalendar {
  return exchangeCalendar(exchangeOf(ticker).mic);
}
