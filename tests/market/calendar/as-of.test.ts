import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { resolveAsOf } from '../../../src/market/as-of.js';
import { exchangeCalendar, parseDay } from '../../../src/market/calendar/index.js';
import { easterSunday } from '../../../src/market/calendar/days.js';
import { requestAsOfFromFlag, resolveRunClock, resolveRunClocks } from '../../../src/run/as-of.js';

/** The calendar's day-to-day questions, and --as-of resolved on the ticker's own exchange. */

const nyse = exchangeCalendar('XNYS');
const tokyo = exchangeCalendar('XTKS');

describe('the US calendar by rule', () => {
  it('2025 holidays as the NYSE published them', () => {
    const closed = nyse.sessions('2025-01-01', '2025-12-31').map((session) => session.date);
    const weekdays = [];
    for (
      let day = '2025-01-01';
      day <= '2025-12-31';
      day = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    ) {
      const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
      if (weekday !== 0 && weekday !== 6 && !closed.includes(day)) weekdays.push(day);
    }
    expect(weekdays).toEqual([
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
    expect(nyse.closureReason('2021-07-05')).toBe('Independence Day');
    expect(nyse.closureReason('2021-12-24')).toBe('Christmas Day');
    expect(nyse.closureReason('2021-12-31')).toBeNull();
    expect(nyse.closureReason('2022-06-20')).toBe('Juneteenth');
    expect(nyse.closureReason('2027-06-18')).toBe('Juneteenth');
    expect(nyse.closureReason('2021-06-18')).toBeNull();
  });

  it('Easter and Good Friday across years', () => {
    expect(easterSunday(2024)).toBe('2024-03-31');
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(nyse.closureReason('2026-04-03')).toBe('Good Friday');
  });

  it('names weekends and finds the sessions around a closure', () => {
    expect(nyse.closureReason('2025-11-29')).toBe('a Saturday');
    expect(nyse.closureReason('2025-11-30')).toBe('a Sunday');
    expect(nyse.adjacentSession('2025-12-25', -1)).toBe('2025-12-24');
    expect(nyse.adjacentSession('2025-12-25', 1)).toBe('2025-12-26');
    expect(nyse.adjacentSession('2025-07-04', 1)).toBe('2025-07-07');
  });

  it('a session closes at 16:00 New York time, DST-correct, and at 13:00 on an early close', () => {
    expect(nyse.closeAt('2025-07-01').toISOString()).toBe('2025-07-01T20:00:00.000Z');
    expect(nyse.closeAt('2025-12-01').toISOString()).toBe('2025-12-01T21:00:00.000Z');
    expect(nyse.closeAt('2025-03-07').toISOString()).toBe('2025-03-07T21:00:00.000Z');
    expect(nyse.closeAt('2025-03-10').toISOString()).toBe('2025-03-10T20:00:00.000Z');
    expect(nyse.closeAt('2025-10-31').toISOString()).toBe('2025-10-31T20:00:00.000Z');
    expect(nyse.closeAt('2025-11-03').toISOString()).toBe('2025-11-03T21:00:00.000Z');
    expect(nyse.closeAt('2025-12-24').toISOString()).toBe('2025-12-24T18:00:00.000Z');
  });

  it('the latest closed session depends on whether today has closed yet', () => {
    expect(nyse.latestClosedSession(new Date('2025-12-02T20:59:00Z'))).toBe('2025-12-01');
    expect(nyse.latestClosedSession(new Date('2025-12-02T21:00:00Z'))).toBe('2025-12-02');
    expect(nyse.latestClosedSession(new Date('2025-12-27T12:00:00Z'))).toBe('2025-12-26');
    // The demo day closed early: by 18:00 UTC it is the latest closed session.
    expect(nyse.latestClosedSession(new Date('2026-11-27T18:00:00Z'))).toBe('2026-11-27');
  });

  it('parses only real calendar days', () => {
    expect(parseDay('2025-02-28')).toBe('2025-02-28');
    expect(parseDay('2025-02-30')).toBeNull();
    expect(parseDay('2025-2-3')).toBeNull();
  });

  it('the session a decision enters at: after the close or mid-session the next one; before the bell that day', () => {
    expect(nyse.nextSessionAfter(new Date('2025-07-03T20:00:00Z'))).toBe('2025-07-07');
    expect(nyse.nextSessionAfter(new Date('2025-06-02T15:00:00Z'))).toBe('2025-06-03');
    expect(nyse.nextSessionAfter(new Date('2025-06-02T13:00:00Z'))).toBe('2025-06-02');
    expect(nyse.nextSessionAfter(new Date('2025-06-01T15:00:00Z'))).toBe('2025-06-02');
    expect(nyse.sessionsAfter('2025-06-27', 5)).toBe('2025-07-07');
    // Tokyo: a decision at the NYSE close of Friday 4 July enters at Tokyo's Monday open.
    expect(tokyo.nextSessionAfter(new Date('2025-07-04T20:00:00Z'))).toBe('2025-07-07');
    expect(tokyo.sessionsAfter('2025-07-18', 1)).toBe('2025-07-22'); // Marine Day on the 21st
  });
});

describe('resolveAsOf on an exchange', () => {
  const now = new Date('2025-12-02T15:00:00Z');

  it('a past session: its close is the clock', () => {
    expect(resolveAsOf('2025-06-02', now)).toEqual({
      day: '2025-06-02',
      close: new Date('2025-06-02T20:00:00Z'),
      mic: 'XNYS',
    });
    expect(resolveAsOf('2025-07-04', now, tokyo)).toEqual({
      day: '2025-07-04',
      close: new Date('2025-07-04T06:30:00Z'),
      mic: 'XTKS',
    });
  });

  it('a holiday or a weekend: a usage error naming the exchange and the sessions around it', () => {
    expect(() => resolveAsOf('2025-07-04', now)).toThrow(
      new UsageError(
        '--as-of 2025-07-04: the New York Stock Exchange (XNYS) was closed (Independence Day); the nearest sessions are 2025-07-03 and 2025-07-07',
      ),
    );
    expect(() => resolveAsOf('2025-11-29', now)).toThrow(
      /closed \(a Saturday\); the nearest sessions are 2025-11-28 and 2025-12-01/,
    );
  });

  it('the future, or today before the close: a usage error naming the latest closed session', () => {
    expect(() => resolveAsOf('2025-12-02', now)).toThrow(
      new UsageError(
        '--as-of 2025-12-02 is in the future or its session has not closed yet; the latest closed session of the New York Stock Exchange (XNYS) is 2025-12-01',
      ),
    );
    // Tokyo has closed for the day by 15:00 UTC.
    expect(resolveAsOf('2025-12-02', now, tokyo).close.toISOString()).toBe('2025-12-02T06:30:00.000Z');
  });

  it('not a date', () => {
    expect(() => resolveAsOf('yesterday', now)).toThrow(
      new UsageError("--as-of must be a date as YYYY-MM-DD (got 'yesterday')"),
    );
    expect(() => resolveAsOf('2025-13-01', now)).toThrow(UsageError);
  });
});

describe('one clock per ticker (the request level)', () => {
  const now = new Date('2025-12-02T15:00:00Z');
  const live = () => now;

  it('analyze 7203.T --as-of 2025-07-04 is accepted: the NYSE was closed, Tokyo traded', () => {
    expect(resolveRunClock({ ticker: '7203.T', asOf: requestAsOfFromFlag('2025-07-04') }, now, live)).toEqual({
      at: new Date('2025-07-04T06:30:00Z'),
      historical: true,
      mic: 'XTKS',
    });
    expect(() => resolveRunClock({ ticker: 'AAPL', asOf: requestAsOfFromFlag('2025-07-04') }, now, live)).toThrow(
      /New York Stock Exchange \(XNYS\) was closed \(Independence Day\)/,
    );
  });

  it('a Tokyo holiday is refused, naming the ticker, the holiday and the sessions either side', () => {
    expect(() => resolveRunClock({ ticker: '7203.T', asOf: requestAsOfFromFlag('2025-07-21') }, now, live)).toThrow(
      new UsageError(
        '--as-of 2025-07-21 for 7203.T: the Tokyo Stock Exchange (XTKS) was closed (Marine Day); the nearest sessions are 2025-07-18 and 2025-07-22',
      ),
    );
  });

  it('a universe mixing .L, .T and US tickers resolves three clocks', () => {
    const asOf = requestAsOfFromFlag('2025-06-02');
    const clocks = resolveRunClocks(
      ['OCDO.L', '7203.T', 'AAPL'].map((ticker) => ({ ticker, asOf })),
      now,
      live,
    );
    expect(clocks.map((clock) => `${clock.mic} ${clock.at.toISOString()}`)).toEqual([
      'XLON 2025-06-02T15:30:00.000Z',
      'XTKS 2025-06-02T06:30:00.000Z',
      'XNYS 2025-06-02T20:00:00.000Z',
    ]);
  });

  it('an unknown suffix is a usage error listing the supported ones', () => {
    expect(() => resolveRunClock({ ticker: 'AZT.OL', asOf: { kind: 'live' } }, now, live)).toThrow(
      /unknown exchange suffix '\.OL'; supported: none \(XNYS\), \.L \(XLON\)/,
    );
  });
});
