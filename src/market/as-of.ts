import { UsageError } from '../errors.js';
import { exchangeCalendar, parseDay, type ExchangeCalendar } from './calendar/index.js';

/**
 * `--as-of YYYY-MM-DD`: a past session of the ticker's exchange whose close becomes the
 * run's clock. A day that exchange was closed, or one whose close has not happened yet,
 * is a usage error that names the nearest sessions, so the user can type it again at once.
 */

export interface HistoricalAsOf {
  /** The session, YYYY-MM-DD, in the exchange's own calendar. */
  day: string;
  /** Its close in the exchange's zone (early on an early-close day): the run's clock. */
  close: Date;
  /** The exchange (MIC) whose session it is. */
  mic: string;
}

/** The close of session `text` on an exchange (default: the US one), checked against the calendar and `now`. */
export function resolveAsOf(
  text: string,
  now: Date,
  calendar: ExchangeCalendar = exchangeCalendar('XNYS'),
  ticker?: string,
): HistoricalAsOf {
  const day = parseDay(text);
  if (day === null) throw new UsageError(`--as-of must be a date as YYYY-MM-DD (got '${text}')`);
  const exchange = `the ${calendar.exchange.name} (${calendar.exchange.mic})`;
  const subject = ticker === undefined ? `--as-of ${day}` : `--as-of ${day} for ${ticker}`;
  const latest = calendar.latestClosedSession(now);
  if (day > latest) {
    throw new UsageError(
      `${subject} is in the future or its session has not closed yet; the latest closed session of ${exchange} is ${latest}`,
    );
  }
  const reason = calendar.closureReason(day);
  if (reason !== null) {
    const before = calendar.adjacentSession(day, -1);
    const after = calendar.adjacentSession(day, 1);
    const nearest =
      after > latest ? `the nearest session is ${before}` : `the nearest sessions are ${before} and ${after}`;
    throw new UsageError(`${subject}: ${exchange} was closed (${reason}); ${nearest}`);
  }
  return { day, close: calendar.closeAt(day), mic: calendar.exchange.mic };
}
