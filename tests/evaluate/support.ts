import type { PricedSession } from '../../src/evaluate/outcome.js';
import { exchangeCalendar } from '../../src/market/calendar/index.js';
import { json, type FixtureResponse } from '../market/support/yahoo-router.js';

const nyse = exchangeCalendar('XNYS');

/**
 * A synthetic price path, hand-made so every outcome below can be worked out on paper.
 * The as-of session is Monday 2025-06-02 (close 100); the five sessions after it:
 *
 *   date        open  high   low  close
 *   2025-06-02    99  100.5  98.5   100   ← as of (the reference close)
 *   2025-06-03   100  102    99     101   ← entry at this open
 *   2025-06-04   101  106   100     105
 *   2025-06-05   105  107   103     104
 *   2025-06-06   100  101    98      99
 *   2025-06-09    95   97    94      96   ← gaps below 97.5
 */
export const asOfDay = '2025-06-02';

export const acmePath: PricedSession[] = [
  { date: '2025-06-02', open: 99, high: 100.5, low: 98.5, close: 100 },
  { date: '2025-06-03', open: 100, high: 102, low: 99, close: 101 },
  { date: '2025-06-04', open: 101, high: 106, low: 100, close: 105 },
  { date: '2025-06-05', open: 105, high: 107, low: 103, close: 104 },
  { date: '2025-06-06', open: 100, high: 101, low: 98, close: 99 },
  { date: '2025-06-09', open: 95, high: 97, low: 94, close: 96 },
];

/** The benchmark on the same days: +1 % from the 06-03 open to the 06-04 close, +2 % to the 06-05 close. */
export const benchmarkPath: PricedSession[] = [
  { date: '2025-06-02', open: 500, high: 501, low: 499, close: 500 },
  { date: '2025-06-03', open: 500, high: 503, low: 499, close: 502 },
  { date: '2025-06-04', open: 502, high: 506, low: 501, close: 505 },
  { date: '2025-06-05', open: 505, high: 511, low: 504, close: 510 },
  { date: '2025-06-06', open: 510, high: 512, low: 505, close: 507 },
  { date: '2025-06-09', open: 507, high: 509, low: 500, close: 505 },
];

/** A flat year of sessions before the path (for the saved run's bars), ending the day before it. */
export function yearBefore(firstDay: string, closes: (index: number) => number, count = 260): PricedSession[] {
  const days: string[] = [];
  let day = firstDay;
  for (let step = 0; step < count; step += 1) {
    day = nyse.adjacentSession(day, -1);
    days.unshift(day);
  }
  return days.map((date, index) => {
    const close = closes(index);
    return { date, open: close, high: close, low: close, close };
  });
}

/** A v8 chart body for these sessions, stamped at 09:30 New York like Yahoo's. */
export function chartOf(symbol: string, sessions: readonly PricedSession[]): FixtureResponse {
  const timestamp = sessions.map((session) => Date.parse(`${session.date}T13:30:00Z`) / 1000);
  return json({
    chart: {
      result: [
        {
          meta: {
            currency: 'USD',
            symbol,
            exchangeName: 'NMS',
            fullExchangeName: 'NasdaqGS',
            instrumentType: 'EQUITY',
            gmtoffset: -14400,
            timezone: 'EDT',
            exchangeTimezoneName: 'America/New_York',
          },
          timestamp,
          indicators: {
            quote: [
              {
                open: sessions.map((session) => session.open),
                high: sessions.map((session) => session.high),
                low: sessions.map((session) => session.low),
                close: sessions.map((session) => session.close),
                volume: sessions.map(() => 1_000_000),
              },
            ],
            adjclose: [{ adjclose: sessions.map((session) => session.close) }],
          },
        },
      ],
      error: null,
    },
  });
}
