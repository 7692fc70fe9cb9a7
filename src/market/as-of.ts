import { UsageError } from '../errors.js';
import { adjacentSession, closureReason, latestClosedSession, parseDay, sessionClose } from './sessions.js';

/**
 * `--as-of YYYY-MM-DD`: a past US session whose close becomes the run's clock. A day
 * the market was closed, or one whose close has not happened yet, is a usage error
 * that names the nearest session, so the user can type it again at once.
 */

export interface HistoricalAsOf {
  /** The session, YYYY-MM-DD. */
  day: string;
  /** Its close, 16:00 New York time: the run's clock. */
  close: Date;
}

export function resolveAsOf(text: string, now: Date): HistoricalAsOf {
  const day = parseDay(text);
  if (day === null) throw new UsageError(`--as-of must be a date as YYYY-MM-DD (got '${text}')`);
  const latest = latestClosedSession(now);
  if (day > latest) {
    throw new UsageError(
      `--as-of ${day} is in the future or its session has not closed yet; the latest closed US session is ${latest}`,
    );
  }
  const reason = closureReason(day);
  if (reason !== null) {
    const before = adjacentSession(day, -1);
    const after = adjacentSession(day, 1);
    const nearest =
      after > latest ? `the nearest session is ${before}` : `the nearest sessions are ${before} and ${after}`;
    throw new UsageError(`--as-of ${day}: the US market was closed (${reason}); ${nearest}`);
  }
  return { day, close: sessionClose(day) };
}
