import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { exchangeCalendar, exchangeOf, exchanges } from '../../../src/market/calendar/index.js';

/**
 * The exchanges without a golden file in ../shared, checked year by year against the
 * sessions exchange_calendars records for them (its tests/resources at 5308ce2, read
 * when these tables were written): every weekday closure of the year, and every early
 * close with its local time. A rule that drifts by a day, a year or an hour fails here.
 */

interface YearFacts {
  holidays: string[];
  /** 'YYYY-MM-DD HH:MM', local time. */
  earlyCloses: string[];
}

const facts: Record<string, Record<number, YearFacts>> = {
  XPAR: {
    2001: {
      holidays: [
        '2001-01-01',
        '2001-04-13',
        '2001-04-16',
        '2001-05-01',
        '2001-06-04',
        '2001-12-25',
        '2001-12-26',
        '2001-12-31',
      ],
      earlyCloses: ['2001-12-24 14:05'],
    },
    2012: {
      holidays: ['2012-04-06', '2012-04-09', '2012-05-01', '2012-12-25', '2012-12-26'],
      earlyCloses: ['2012-12-24 14:05', '2012-12-31 14:05'],
    },
    2018: {
      holidays: ['2018-01-01', '2018-03-30', '2018-04-02', '2018-05-01', '2018-12-25', '2018-12-26'],
      earlyCloses: ['2018-12-24 14:05', '2018-12-31 14:05'],
    },
  },
  XAMS: {
    2000: {
      holidays: ['2000-04-21', '2000-04-24', '2000-05-01', '2000-06-01', '2000-06-12', '2000-12-25', '2000-12-26'],
      earlyCloses: [],
    },
    2011: { holidays: ['2011-04-22', '2011-04-25', '2011-12-26'], earlyCloses: [] },
    2018: {
      holidays: ['2018-01-01', '2018-03-30', '2018-04-02', '2018-05-01', '2018-12-25', '2018-12-26'],
      earlyCloses: ['2018-12-24 14:05', '2018-12-31 14:05'],
    },
  },
  XSWX: {
    2004: {
      holidays: [
        '2004-01-01',
        '2004-01-02',
        '2004-04-09',
        '2004-04-12',
        '2004-05-20',
        '2004-05-31',
        '2004-12-24',
        '2004-12-31',
      ],
      earlyCloses: [],
    },
    2010: {
      holidays: ['2010-01-01', '2010-04-02', '2010-04-05', '2010-05-13', '2010-05-24', '2010-12-24', '2010-12-31'],
      earlyCloses: [],
    },
    2018: {
      holidays: [
        '2018-01-01',
        '2018-01-02',
        '2018-03-30',
        '2018-04-02',
        '2018-05-01',
        '2018-05-10',
        '2018-05-21',
        '2018-08-01',
        '2018-12-24',
        '2018-12-25',
        '2018-12-26',
        '2018-12-31',
      ],
      earlyCloses: [],
    },
  },
  XHKG: {
    2010: {
      holidays: [
        '2010-01-01',
        '2010-02-15',
        '2010-02-16',
        '2010-04-02',
        '2010-04-05',
        '2010-04-06',
        '2010-05-21',
        '2010-06-16',
        '2010-07-01',
        '2010-09-23',
        '2010-10-01',
        '2010-12-27',
      ],
      earlyCloses: ['2010-12-24 12:30', '2010-12-31 12:30'],
    },
    2013: {
      holidays: [
        '2013-01-01',
        '2013-02-11',
        '2013-02-12',
        '2013-02-13',
        '2013-03-29',
        '2013-04-01',
        '2013-04-04',
        '2013-05-01',
        '2013-05-17',
        '2013-06-12',
        '2013-07-01',
        '2013-08-14',
        '2013-09-20',
        '2013-10-01',
        '2013-10-14',
        '2013-12-25',
        '2013-12-26',
      ],
      earlyCloses: ['2013-12-24 12:00', '2013-12-31 12:00'],
    },
    2015: {
      holidays: [
        '2015-01-01',
        '2015-02-19',
        '2015-02-20',
        '2015-04-03',
        '2015-04-06',
        '2015-04-07',
        '2015-05-01',
        '2015-05-25',
        '2015-07-01',
        '2015-09-03',
        '2015-09-28',
        '2015-10-01',
        '2015-10-21',
        '2015-12-25',
      ],
      earlyCloses: ['2015-02-18 12:00', '2015-12-24 12:00', '2015-12-31 12:00'],
    },
    2023: {
      holidays: [
        '2023-01-02',
        '2023-01-23',
        '2023-01-24',
        '2023-01-25',
        '2023-04-05',
        '2023-04-07',
        '2023-04-10',
        '2023-05-01',
        '2023-05-26',
        '2023-06-22',
        '2023-07-17',
        '2023-10-02',
        '2023-10-23',
        '2023-12-25',
        '2023-12-26',
      ],
      earlyCloses: [],
    },
    2024: {
      holidays: [
        '2024-01-01',
        '2024-02-12',
        '2024-02-13',
        '2024-03-29',
        '2024-04-01',
        '2024-04-04',
        '2024-05-01',
        '2024-05-15',
        '2024-06-10',
        '2024-07-01',
        '2024-09-06',
        '2024-09-18',
        '2024-10-01',
        '2024-10-11',
        '2024-12-25',
        '2024-12-26',
      ],
      earlyCloses: ['2024-02-09 12:00', '2024-12-24 12:00', '2024-12-31 12:00'],
    },
  },
  XASX: {
    2010: {
      holidays: [
        '2010-01-01',
        '2010-01-26',
        '2010-04-02',
        '2010-04-05',
        '2010-04-26',
        '2010-06-14',
        '2010-12-27',
        '2010-12-28',
      ],
      earlyCloses: ['2010-12-24 14:10', '2010-12-31 14:10'],
    },
    2011: {
      holidays: [
        '2011-01-03',
        '2011-01-26',
        '2011-04-22',
        '2011-04-25',
        '2011-04-26',
        '2011-06-13',
        '2011-12-26',
        '2011-12-27',
      ],
      earlyCloses: ['2011-12-23 14:10', '2011-12-30 14:10'],
    },
    2022: {
      holidays: [
        '2022-01-03',
        '2022-01-26',
        '2022-04-15',
        '2022-04-18',
        '2022-04-25',
        '2022-06-13',
        '2022-09-22',
        '2022-12-26',
        '2022-12-27',
      ],
      earlyCloses: [],
    },
    2024: {
      holidays: [
        '2024-01-01',
        '2024-01-26',
        '2024-03-29',
        '2024-04-01',
        '2024-04-25',
        '2024-06-10',
        '2024-12-25',
        '2024-12-26',
      ],
      earlyCloses: ['2024-12-24 14:10', '2024-12-31 14:10'],
    },
  },
  XTSE: {
    2001: {
      holidays: [
        '2001-01-01',
        '2001-04-13',
        '2001-05-21',
        '2001-07-02',
        '2001-08-06',
        '2001-09-03',
        '2001-09-11',
        '2001-09-12',
        '2001-10-08',
        '2001-12-25',
        '2001-12-26',
      ],
      earlyCloses: [],
    },
    2010: {
      holidays: [
        '2010-01-01',
        '2010-02-15',
        '2010-04-02',
        '2010-05-24',
        '2010-07-01',
        '2010-08-02',
        '2010-09-06',
        '2010-10-11',
        '2010-12-27',
        '2010-12-28',
      ],
      earlyCloses: ['2010-12-24 13:00'],
    },
    2016: {
      holidays: [
        '2016-01-01',
        '2016-02-15',
        '2016-03-25',
        '2016-05-23',
        '2016-07-01',
        '2016-08-01',
        '2016-09-05',
        '2016-10-10',
        '2016-12-26',
        '2016-12-27',
      ],
      earlyCloses: [],
    },
  },
};

function weekdaysOf(year: number): string[] {
  const days: string[] = [];
  for (let time = Date.UTC(year, 0, 1); time < Date.UTC(year + 1, 0, 1); time += 86_400_000) {
    const date = new Date(time);
    if (date.getUTCDay() !== 0 && date.getUTCDay() !== 6) days.push(date.toISOString().slice(0, 10));
  }
  return days;
}

function localTime(zone: string, instant: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(instant));
}

describe('exchange calendars year by year (exchange_calendars facts)', () => {
  for (const [mic, years] of Object.entries(facts)) {
    for (const [year, expected] of Object.entries(years)) {
      it(`${mic} ${year}: holidays and early closes`, () => {
        const calendar = exchangeCalendar(mic);
        const holidays = weekdaysOf(Number(year)).filter((day) => !calendar.isSession(day));
        const early = calendar
          .sessions(`${year}-01-01`, `${year}-12-31`)
          .filter((session) => session.earlyClose)
          .map((session) => `${session.date} ${localTime(calendar.exchange.zone, session.close)}`);
        expect({ holidays, earlyCloses: early }).toEqual(expected);
      });
    }
  }

  it('Hong Kong: the lunch break, and none on a half day', () => {
    const hongKong = exchangeCalendar('XHKG');
    expect(hongKong.session('2024-02-08')).toEqual({
      date: '2024-02-08',
      open: '2024-02-08T01:30:00.000Z',
      close: '2024-02-08T08:00:00.000Z',
      breakStart: '2024-02-08T04:00:00.000Z',
      breakEnd: '2024-02-08T05:00:00.000Z',
    });
    expect(hongKong.session('2024-02-09')).toEqual({
      date: '2024-02-09',
      open: '2024-02-09T01:30:00.000Z',
      close: '2024-02-09T04:00:00.000Z',
      earlyClose: true,
    });
  });

  it('Sydney and Toronto follow their own daylight saving', () => {
    // Sydney is UTC+11 in January, UTC+10 in July; Toronto UTC-5 in January, UTC-4 in July.
    expect(exchangeCalendar('XASX').session('2024-01-15')?.open).toBe('2024-01-14T23:00:00.000Z');
    expect(exchangeCalendar('XASX').session('2024-07-15')?.open).toBe('2024-07-15T00:00:00.000Z');
    expect(exchangeCalendar('XTSE').session('2024-01-15')?.close).toBe('2024-01-15T21:00:00.000Z');
    expect(exchangeCalendar('XTSE').session('2024-07-15')?.close).toBe('2024-07-15T20:00:00.000Z');
  });
});

describe('NYSE: the demo day and the years after the golden file', () => {
  it('2026-11-27, the day after Thanksgiving, closes at 13:00 New York (18:00 UTC)', () => {
    expect(exchangeCalendar('XNYS').session('2026-11-27')).toEqual({
      date: '2026-11-27',
      open: '2026-11-27T14:30:00.000Z',
      close: '2026-11-27T18:00:00.000Z',
      earlyClose: true,
    });
  });

  it('2026 and 2027 holidays as the NYSE published them', () => {
    const nyse = exchangeCalendar('XNYS');
    const closed = (year: number) => weekdaysOf(year).filter((day) => !nyse.isSession(day));
    expect(closed(2026)).toEqual([
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-04-03',
      '2026-05-25',
      '2026-06-19',
      '2026-07-03',
      '2026-09-07',
      '2026-11-26',
      '2026-12-25',
    ]);
    expect(closed(2027)).toEqual([
      '2027-01-01',
      '2027-01-18',
      '2027-02-15',
      '2027-03-26',
      '2027-05-31',
      '2027-06-18',
      '2027-07-05',
      '2027-09-06',
      '2027-11-25',
      '2027-12-24',
    ]);
  });
});

describe('exchangeOf: the exchange from the ticker suffix (Yahoo conventions)', () => {
  it.each([
    ['AAPL', 'XNYS'],
    ['BRK.B', 'XNYS'],
    ['BRK-B', 'XNYS'],
    ['^GSPC', 'XNYS'],
    ['OCDO.L', 'XLON'],
    ['SAP.DE', 'XETR'],
    ['MC.PA', 'XPAR'],
    ['ASML.AS', 'XAMS'],
    ['NESN.SW', 'XSWX'],
    ['7203.T', 'XTKS'],
    ['0700.HK', 'XHKG'],
    ['BHP.AX', 'XASX'],
    ['RY.TO', 'XTSE'],
    ['vod.l', 'XLON'],
  ])('%s → %s', (ticker, mic) => {
    expect(exchangeOf(ticker).mic).toBe(mic);
  });

  it('an unknown suffix is a usage error (exit 2) that lists the supported ones', () => {
    for (const ticker of ['AZT.OL', 'ORSTED.CO', 'SHOP.V']) {
      const error = (() => {
        try {
          exchangeOf(ticker);
        } catch (caught) {
          return caught;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).exitCode).toBe(2);
      expect((error as UsageError).message).toContain('.L (XLON)');
      expect((error as UsageError).message).toContain('.TO (XTSE)');
    }
  });

  it('every exchange has its zone, currency and suffixes', () => {
    expect(exchanges.map((exchange) => `${exchange.mic} ${exchange.zone} ${exchange.currency}`)).toEqual([
      'XNYS America/New_York USD',
      'XLON Europe/London GBP',
      'XETR Europe/Berlin EUR',
      'XPAR Europe/Paris EUR',
      'XAMS Europe/Amsterdam EUR',
      'XSWX Europe/Zurich CHF',
      'XTKS Asia/Tokyo JPY',
      'XHKG Asia/Hong_Kong HKD',
      'XASX Australia/Sydney AUD',
      'XTSE America/Toronto CAD',
    ]);
  });
});
