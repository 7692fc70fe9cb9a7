import { resolveAsOf } from '../market/as-of.js';
import type { RequestAsOf } from './request.js';

/** A request's clock: the instant every date of the run comes from, and whether it is a past session's close. */
export interface RunClock {
  at: Date;
  historical: boolean;
}

/**
 * The one meaning of `--as-of D`, wherever it came from (analyze, a universe, a queue
 * job, an MCP call): the close of NYSE session D, checked against the calendar and
 * `now` (a closed or future day is a usage error naming the nearest session). A live
 * request runs at `live()`: now, or the recorded instant of a replayed cassette.
 */
export function resolveRunClock(asOf: RequestAsOf, now: Date, live: () => Date): RunClock {
  if (asOf.kind === 'live') return { at: live(), historical: false };
  return { at: resolveAsOf(asOf.day, now).close, historical: true };
}

/** `--as-of` as typed (or absent) as the request's as-of; the day is checked when the clock is resolved. */
export function requestAsOfFromFlag(text: string | undefined): RequestAsOf {
  return text === undefined ? { kind: 'live' } : { kind: 'historical', day: text.trim() };
}
