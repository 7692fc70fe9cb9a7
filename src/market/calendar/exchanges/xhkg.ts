import { Weekday, addDays, easterOffset, sundayToMonday, weekday, ymd } from '../days.js';
import { dayList, tableDays, type DatedRule, type Exchange } from '../exchange.js';

/**
 * Hong Kong Exchanges (HKEX): 09:30–16:00 (10:00 before 2011-03-07) with a lunch
 * break 12:00–13:00; the eves of Christmas, New Year and (from 2013) Lunar New Year
 * close at noon (12:30 before 2011-03-07). Rules and tables as in exchange_calendars'
 * XHKG. The Chinese festivals follow the lunisolar calendar, so they are tables of
 * dates per year; typhoon and rainstorm closures are listed as they happened.
 */

const lunarNewYear = dayList(`
  2000-02-05 2001-01-24 2002-02-12 2003-02-01 2004-01-22 2005-02-09 2006-01-29
  2007-02-18 2008-02-07 2009-01-26 2010-02-14 2011-02-03 2012-01-23 2013-02-10
  2014-01-31 2015-02-19 2016-02-08 2017-01-28 2018-02-16 2019-02-05 2020-01-25
  2021-02-12 2022-02-01 2023-01-22 2024-02-10 2025-01-29 2026-02-17 2027-02-06
  2028-01-26
`);

const chingMing = dayList(`
  2000-04-04 2001-04-05 2002-04-05 2003-04-05 2004-04-04 2005-04-05 2006-04-05
  2007-04-05 2008-04-04 2009-04-04 2010-04-05 2011-04-05 2012-04-04 2013-04-04
  2014-04-05 2015-04-05 2016-04-04 2017-04-04 2018-04-05 2019-04-05 2020-04-04
  2021-04-04 2022-04-05 2023-04-05 2024-04-04 2025-04-04 2026-04-05 2027-04-05
  2028-04-04
`);

const buddhasBirthday = dayList(`
  2000-05-11 2001-04-30 2002-05-19 2003-05-08 2004-05-26 2005-05-15 2006-05-05
  2007-05-24 2008-05-12 2009-05-02 2010-05-21 2011-05-10 2012-04-28 2013-05-17
  2014-05-06 2015-05-25 2016-05-14 2017-05-03 2018-05-22 2019-05-12 2020-04-30
  2021-05-19 2022-05-08 2023-05-26 2024-05-15 2025-05-05 2026-05-24 2027-05-13
  2028-05-02
`);

const dragonBoat = dayList(`
  2000-06-06 2001-06-25 2002-06-15 2003-06-04 2004-06-22 2005-06-11 2006-05-31
  2007-06-19 2008-06-08 2009-05-28 2010-06-16 2011-06-06 2012-06-23 2013-06-12
  2014-06-02 2015-06-20 2016-06-09 2017-05-30 2018-06-18 2019-06-07 2020-06-25
  2021-06-14 2022-06-03 2023-06-22 2024-06-10 2025-05-31 2026-06-19 2027-06-09
  2028-05-28
`);

const midAutumn = dayList(`
  2000-09-12 2001-10-01 2002-09-21 2003-09-11 2004-09-28 2005-09-18 2006-10-06
  2007-09-25 2008-09-14 2009-10-03 2010-09-22 2011-09-12 2012-09-30 2013-09-19
  2014-09-08 2015-09-27 2016-09-15 2017-10-04 2018-09-24 2019-09-13 2020-10-01
  2021-09-21 2022-09-10 2023-09-29 2024-09-17 2025-10-06 2026-09-25 2027-09-15
  2028-10-03
`);

const chungYeung = dayList(`
  2000-10-06 2001-10-25 2002-10-14 2003-10-04 2004-10-22 2005-10-11 2006-10-30
  2007-10-19 2008-10-07 2009-10-26 2010-10-16 2011-10-05 2012-10-23 2013-10-13
  2014-10-02 2015-10-21 2016-10-09 2017-10-28 2018-10-17 2019-10-07 2020-10-25
  2021-10-14 2022-10-04 2023-10-23 2024-10-11 2025-10-29 2026-10-18 2027-10-08
  2028-10-26
`);

/** Typhoons, black rainstorms and one-off days since 2000. */
const specialClosures = dayList(`
  2001-07-06 2001-07-25 2008-08-06 2008-08-22 2010-04-06 2011-09-29 2012-10-02
  2013-08-14 2015-04-07 2015-09-03 2016-08-02 2016-10-21 2017-08-23 2020-10-13
  2021-10-13 2022-09-12 2023-07-17 2024-09-06
`);

function lunarNewYearDays(year: number): DatedRule[] {
  const first = lunarNewYear.find((day) => day.startsWith(`${year}-`));
  if (first === undefined) return [];
  const three = [0, 1, 2].map((offset) => addDays(first, offset));
  const days: DatedRule[] = three.map((day) => [day, 'Lunar New Year']);
  // Before 2013 a Saturday New Year gave the eve; from 2013 a Sunday among the three days gives the fourth.
  if (year < 2013 && weekday(first) === Weekday.saturday) days.push([addDays(first, -1), "Lunar New Year's Eve"]);
  if (year >= 2013 && three.some((day) => weekday(day) === Weekday.sunday)) {
    days.push([addDays(first, 3), 'Lunar New Year']);
  }
  return days;
}

function festivalDays(year: number): DatedRule[] {
  const observed = (table: readonly string[], name: string): DatedRule[] =>
    tableDays(table, year, name).map(([day]) => [sundayToMonday(day), name]);
  // Ching Ming on Easter Monday moves a day on; the day after Mid-Autumn on National Day moves to 2 October.
  const chingMingDays = observed(chingMing, 'Ching Ming Festival').map(([day, name]): DatedRule => [
    day === easterOffset(year, 1) ? addDays(day, 1) : day,
    name,
  ]);
  const afterMidAutumn = tableDays(midAutumn, year, 'day after Mid-Autumn Festival').map(([day, name]): DatedRule => {
    const next = addDays(day, 1);
    return [next === ymd(year, 10, 1) ? addDays(next, 1) : next, name];
  });
  return [
    ...chingMingDays,
    ...observed(buddhasBirthday, "Buddha's Birthday"),
    ...observed(dragonBoat, 'Tuen Ng Festival'),
    ...observed(chungYeung, 'Chung Yeung Festival'),
    ...afterMidAutumn,
  ];
}

function holidays(year: number): DatedRule[] {
  const days: DatedRule[] = [
    [sundayToMonday(ymd(year, 1, 1)), "New Year's Day"],
    [easterOffset(year, -2), 'Good Friday'],
    [easterOffset(year, 1), 'Easter Monday'],
    [sundayToMonday(ymd(year, 5, 1)), 'Labour Day'],
    [sundayToMonday(ymd(year, 7, 1)), 'HKSAR Establishment Day'],
    [sundayToMonday(ymd(year, 10, 1)), 'National Day'],
    [ymd(year, 12, 25), 'Christmas Day'],
    [ymd(year, 12, 26), 'Boxing Day'],
  ];
  const christmasObserved = ymd(year, 12, 27);
  if (weekday(christmasObserved) === Weekday.monday || weekday(christmasObserved) === Weekday.tuesday) {
    days.push([christmasObserved, 'Christmas Day (observed)']);
  }
  return [
    ...days,
    ...lunarNewYearDays(year),
    ...festivalDays(year),
    ...tableDays(specialClosures, year, 'special closure'),
  ];
}

function earlyCloses(year: number): DatedRule[] {
  const days: DatedRule[] = [[ymd(year, 12, 24), 'Christmas Eve']];
  // Y2K: 1999-12-31 was a closure, and the rule resumed with 2000-12-31.
  days.push([ymd(year, 12, 31), "New Year's Eve"]);
  const first = lunarNewYear.find((day) => day.startsWith(`${year}-`));
  if (year >= 2013 && first !== undefined && weekday(first) !== Weekday.sunday && weekday(first) !== Weekday.monday) {
    days.push([addDays(first, -1), "Lunar New Year's Eve"]);
  }
  return days;
}

export const xhkg: Exchange = {
  mic: 'XHKG',
  name: 'Hong Kong Stock Exchange',
  zone: 'Asia/Hong_Kong',
  currency: 'HKD',
  suffixes: ['HK'],
  hours: [
    { from: '0000-01-01', open: '10:00', close: '16:00', earlyClose: '12:30', breakStart: '12:00', breakEnd: '13:00' },
    { from: '2011-03-07', open: '09:30', close: '16:00', earlyClose: '12:00', breakStart: '12:00', breakEnd: '13:00' },
  ],
  holidays,
  earlyCloses,
};
