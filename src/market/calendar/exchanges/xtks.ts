import { Weekday, addDays, nthWeekday, sundayToMonday, weekday, ymd } from '../days.js';
import { dayList, tableDays, type DatedRule, type Exchange } from '../exchange.js';

/**
 * The Tokyo Stock Exchange: 09:00–15:00 with a lunch break 11:30–12:30, closing at
 * 15:30 from 2024-11-05; no early closes. Rules and tables as in exchange_calendars'
 * XTKS. The equinoxes are astronomical, so they are a table of the observed days.
 */

const vernalEquinoxes = dayList(`
  2000-03-20 2001-03-20 2002-03-21 2003-03-21 2004-03-20 2005-03-21 2006-03-21
  2007-03-21 2008-03-20 2009-03-20 2010-03-22 2011-03-21 2012-03-20 2013-03-20
  2014-03-21 2015-03-21 2016-03-21 2017-03-20 2018-03-21 2019-03-21 2020-03-20
  2021-03-20 2022-03-21 2023-03-21 2024-03-20 2025-03-20 2026-03-20 2027-03-22
  2028-03-20 2029-03-20 2030-03-20
`);

const autumnalEquinoxes = dayList(`
  2000-09-23 2001-09-24 2002-09-23 2003-09-23 2004-09-23 2005-09-23 2006-09-23
  2007-09-24 2008-09-23 2009-09-23 2010-09-23 2011-09-23 2012-09-22 2013-09-23
  2014-09-23 2015-09-23 2016-09-22 2017-09-23 2018-09-24 2019-09-23 2020-09-22
  2021-09-23 2022-09-23 2023-09-23 2024-09-23 2025-09-23 2026-09-23 2027-09-23
  2028-09-22 2029-09-24 2030-09-23
`);

/** A weekday between two holidays becomes one ("Silver Week"). */
const citizensHolidaysSilverWeek = ['2009-09-22', '2015-09-22', '2026-09-22'];

/** One-off closures: the 2019 enthronement and the 2020 trading-system failure. */
const specialClosures: readonly DatedRule[] = [
  ['2019-04-30', 'Abdication Day'],
  ['2019-05-01', 'Accession Day'],
  ['2019-05-02', "Citizen's Holiday"],
  ['2019-10-22', 'Enthronement Ceremony'],
  ['2020-10-01', 'equity trading system failure'],
];

/** Holidays moved for the Tokyo Olympics. */
const olympicMoves: Record<number, readonly DatedRule[]> = {
  2020: [
    ['2020-07-23', 'Marine Day'],
    ['2020-07-24', 'Health and Sports Day'],
    ['2020-08-10', 'Mountain Day'],
  ],
  2021: [
    ['2021-07-22', 'Marine Day'],
    ['2021-07-23', 'Health and Sports Day'],
    ['2021-08-09', 'Mountain Day'],
  ],
};

/** A holiday on a Sunday moves to the day `days` later (Monday, or further in Golden Week). */
function sundayTo(day: string, days: number): string {
  return weekday(day) === Weekday.sunday ? addDays(day, days) : day;
}

function fixedHolidays(year: number): DatedRule[] {
  const days: DatedRule[] = [
    [ymd(year, 1, 1), "New Year's Day"],
    [ymd(year, 1, 2), "New Year's Holiday"],
    [ymd(year, 1, 3), "New Year's Holiday"],
    [ymd(year, 12, 31), "New Year's Holiday"],
    [nthWeekday(year, 1, Weekday.monday, 2), 'Coming of Age Day'],
    [sundayToMonday(ymd(year, 2, 11)), 'National Foundation Day'],
    [sundayToMonday(ymd(year, 4, 29)), year < 2007 ? 'Greenery Day' : 'Showa Day'],
    [sundayTo(ymd(year, 5, 3), 3), 'Constitution Memorial Day'],
    [sundayTo(ymd(year, 5, 4), year < 2007 ? 1 : 2), year < 2007 ? "Citizen's Holiday" : 'Greenery Day'],
    [sundayToMonday(ymd(year, 5, 5)), "Children's Day"],
    [sundayToMonday(ymd(year, 11, 3)), 'Culture Day'],
    [sundayToMonday(ymd(year, 11, 23)), 'Labor Thanksgiving Day'],
  ];
  if (year <= 2018) days.push([sundayToMonday(ymd(year, 12, 23)), "Emperor's Birthday"]);
  if (year >= 2020) days.push([sundayToMonday(ymd(year, 2, 23)), "Emperor's Birthday"]);
  return days;
}

function movingHolidays(year: number): DatedRule[] {
  const olympic = olympicMoves[year];
  if (olympic) return [...olympic, [nthWeekday(year, 9, Weekday.monday, 3), 'Respect for the Aged Day']];
  const days: DatedRule[] = [[nthWeekday(year, 10, Weekday.monday, 2), 'Health and Sports Day']];
  if (year <= 2002) {
    days.push(
      [sundayToMonday(ymd(year, 7, 20)), 'Marine Day'],
      [sundayToMonday(ymd(year, 9, 15)), 'Respect for the Aged Day'],
    );
  } else {
    days.push(
      [nthWeekday(year, 7, Weekday.monday, 3), 'Marine Day'],
      [nthWeekday(year, 9, Weekday.monday, 3), 'Respect for the Aged Day'],
    );
  }
  if (year >= 2016) days.push([sundayToMonday(ymd(year, 8, 11)), 'Mountain Day']);
  return days;
}

function holidays(year: number): DatedRule[] {
  return [
    ...fixedHolidays(year),
    ...movingHolidays(year),
    ...tableDays(vernalEquinoxes, year, 'Vernal Equinox Day'),
    ...tableDays(autumnalEquinoxes, year, 'Autumnal Equinox Day'),
    ...tableDays(citizensHolidaysSilverWeek, year, "Citizen's Holiday"),
    ...specialClosures.filter(([day]) => day.startsWith(`${year}-`)),
  ];
}

export const xtks: Exchange = {
  mic: 'XTKS',
  name: 'Tokyo Stock Exchange',
  zone: 'Asia/Tokyo',
  currency: 'JPY',
  suffixes: ['T'],
  hours: [
    { from: '0000-01-01', open: '09:00', close: '15:00', breakStart: '11:30', breakEnd: '12:30' },
    { from: '2024-11-05', open: '09:00', close: '15:30', breakStart: '11:30', breakEnd: '12:30' },
  ],
  holidays,
  earlyCloses: () => [],
};
