import { resolveAsOf } from '../market/as-of.js';
import { calendarOf } from '../market/calendar/index.js';
import type { RequestAsOf } from './request.js';

/** A request's clock: the instant every date of the run comes from, and whether it is a past session's close. */
export interface RunClock {
  at: Date;
  historical: boolean;
  /** The exchange (MIC) of the ticker, whose calendar the clock is on. */
  mic: string;
}

/** What a clock is resolved from: the ticker (its exchange) and the as-of as requested. */
export interface ClockRequest {
  ticker: string;
  asOf: RequestAsOf;
}

/**
 * The one meaning of `--as-of D`, wherever it came from (analyze, a universe, a queue
 * job, an MCP call, watch, probe): the close of session D on the ticker's own exchange,
 * checked against that exchange's calendar and `now` (a closed or future day is a usage
 * error naming the sessions either side). A live request runs at `live()`: now, or the
 * recorded instant of a replayed cassette. An unknown exchange suffix is a usage error.
 */
export function resolveRunClock(request: ClockRequest, now: Date, live: () => Date): RunClock {
  const calendar = calendarOf(request.ticker);
  const mic = calendar.exchange.mic;
  if (request.asOf.kind === 'live') return { at: live(), historical: false, mic };
  return { at: resolveAsOf(request.asOf.day, now, calendar, request.ticker).close, historical: true, mic };
}

/**
 * Each request's own clock, before any work starts: a command that mixes exchanges has
 * one clock per ticker, and a day one of them did not trade is refused up front.
 */
export function resolveRunClocks(requests: readonly ClockRequest[], now: Date, live: () => Date): RunClock[] {
  return requests.map((request) => resolveRunClock(request, now, live));
}

/** `--as-of` as typed (or absent) as the request's as-of; the day is checked when the clock is resolved. */
export function requestAsOfFromFlag(text: string | undefined): RequestAsOf {
  return text === undefined ? { kind: 'live' } : { kind: 'historical', day: text.trim() };
}
