import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { resolveAsOf } from '../../src/market/as-of.js';
import {
  adjacentSession,
  closureReason,
  easterSunday,
  latestClosedSession,
  marketHolidays,
  parseDay,
  sessionClose,
} from '../../src/market/sessions.js';

/** The NYSE calendar by rule, checked against the exchange's published holiday lists. */

describe('US market calendar', () => {
  it('2025 holidays as the NYSE published them', () => {
    expect([...marketHolidays(2025).keys()].sort()).toEqual([
      '2025-01-01',
      '2025-01-09', // national day of mourning, Jimmy Carter
      '2025-01-20',
      '2025-02-17',
      '2025-04-18',
      '2025-05-26',
      '2025-06-19',
      '2025-07-04',
      '2025-09-01',
      '2025-11-27',
      '2025-12-25',
    ]);
  });

  it('weekend holidays are observed on the Friday before or the Monday after, except New Year on a Saturday', () => {
    // 2021: Independence Day on a Sunday → Monday 5 July; Christmas on a Saturday → Friday 24 December.
    const holidays2021 = marketHolidays(2021);
    expect(holidays2021.get('2021-07-05')).toBe('Independence Day');
    expect(holidays2021.get('2021-12-24')).toBe('Christmas Day');
    // 2022: New Year's Day on a Saturday: no closure on Friday 31 December 2021, none in January.
    expect(marketHolidays(2022).has('2021-12-31')).toBe(false);
    expect(closureReason('2021-12-31')).toBeNull();
    // 2022: Juneteenth on a Sunday → Monday 20 June; 2027: on a Saturday → Friday 18 June.
    expect(marketHolidays(2022).get('2022-06-20')).toBe('Juneteenth');
    expect(marketHolidays(2027).get('2027-06-18')).toBe('Juneteenth');
    // No Juneteenth closure before 2022.
    expect(closureReason('2021-06-18')).toBeNull();
  });

  it('Easter and Good Friday across years', () => {
    expect(easterSunday(2024)).toBe('2024-03-31');
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(closureReason('2026-04-03')).toBe('a US market holiday (Good Friday)');
  });

  it('names weekends and finds the sessions around a closure', () => {
    expect(closureReason('2025-11-29')).toBe('a Saturday');
    expect(closureReason('2025-11-30')).toBe('a Sunday');
    expect(adjacentSession('2025-12-25', -1)).toBe('2025-12-24');
    expect(adjacentSession('2025-12-25', 1)).toBe('2025-12-26');
    expect(adjacentSession('2025-07-04', 1)).toBe('2025-07-07');
  });

  it('a session closes at 16:00 New York time, DST-correct', () => {
    expect(sessionClose('2025-07-01').toISOString()).toBe('2025-07-01T20:00:00.000Z');
    expect(sessionClose('2025-12-01').toISOString()).toBe('2025-12-01T21:00:00.000Z');
    // The days DST starts and ends (2025-03-09 is a Sunday; the next Monday is in EDT).
    expect(sessionClose('2025-03-07').toISOString()).toBe('2025-03-07T21:00:00.000Z');
    expect(sessionClose('2025-03-10').toISOString()).toBe('2025-03-10T20:00:00.000Z');
    expect(sessionClose('2025-10-31').toISOString()).toBe('2025-10-31T20:00:00.000Z');
    expect(sessionClose('2025-11-03').toISOString()).toBe('2025-11-03T21:00:00.000Z');
  });

  it('the latest closed session depends on whether today has closed yet', () => {
    expect(latestClosedSession(new Date('2025-12-02T20:59:00Z'))).toBe('2025-12-01');
    expect(latestClosedSession(new Date('2025-12-02T21:00:00Z'))).toBe('2025-12-02');
    expect(latestClosedSession(new Date('2025-12-27T12:00:00Z'))).toBe('2025-12-26');
  });

  it('parses only real calendar days', () => {
    expect(parseDay('2025-02-28')).toBe('2025-02-28');
    expect(parseDay('2025-02-30')).toBeNull();
    expect(parseDay('2025-2-3')).toBeNull();
  });
});

describe('resolveAsOf', () => {
  const now = new Date('2025-12-02T15:00:00Z');

  it('a past session: its close is the clock', () => {
    expect(resolveAsOf('2025-06-02', now)).toEqual({ day: '2025-06-02', close: new Date('2025-06-02T20:00:00Z') });
  });

  it('a holiday or a weekend: a usage error naming the sessions around it', () => {
    expect(() => resolveAsOf('2025-07-04', now)).toThrow(
      new UsageError(
        '--as-of 2025-07-04: the US market was closed (a US market holiday (Independence Day)); the nearest sessions are 2025-07-03 and 2025-07-07',
      ),
    );
    expect(() => resolveAsOf('2025-11-29', now)).toThrow(
      /closed \(a Saturday\); the nearest sessions are 2025-11-28 and 2025-12-01/,
    );
  });

  it('the future, or today before the close: a usage error naming the latest closed session', () => {
    expect(() => resolveAsOf('2025-12-02', now)).toThrow(
      new UsageError(
        '--as-of 2025-12-02 is in the future or its session has not closed yet; the latest closed US session is 2025-12-01',
      ),
    );
    expect(() => resolveAsOf('2030-01-02', now)).toThrow(/latest closed US session is 2025-12-01/);
  });

  it('not a date', () => {
    expect(() => resolveAsOf('yesterday', now)).toThrow(
      new UsageError("--as-of must be a date as YYYY-MM-DD (got 'yesterday')"),
    );
    expect(() => resolveAsOf('2025-13-01', now)).toThrow(UsageError);
  });
});

describe('the session a decision enters at', () => {
  it('after the close, or during a session: the next one; before the bell: that day', async () => {
    const { nextSessionAfter, sessionsAfter } = await import('../../src/market/sessions.js');
    expect(nextSessionAfter(new Date('2025-07-03T20:00:00Z'))).toBe('2025-07-07'); // after the close, then the 4th of July and a weekend
    expect(nextSessionAfter(new Date('2025-06-02T15:00:00Z'))).toBe('2025-06-03'); // 11:00 New York, mid-session
    expect(nextSessionAfter(new Date('2025-06-02T13:00:00Z'))).toBe('2025-06-02'); // 09:00 New York, before the open
    expect(nextSessionAfter(new Date('2025-06-01T15:00:00Z'))).toBe('2025-06-02'); // a Sunday
    expect(sessionsAfter('2025-06-27', 5)).toBe('2025-07-07');
  });
});
