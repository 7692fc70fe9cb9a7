import { Weekday, addDays, easterOffset, nearestWorkday, nthWeekday, sundayToMonday, weekday, ymd } from '../days.js';
import { tableDays, type DatedRule, type Exchange } from '../exchange.js';

/**
 * The New York Stock Exchange; Nasdaq keeps the same days and hours. Rules as in
 * exchange_calendars' XNYS (NYSE Rule 7.2): 09:30–16:00, early closes at 13:00.
 */

/** Closures that no rule predicts since 2000: national days of mourning and emergencies. */
const specialClosures: readonly DatedRule[] = [
  ['2001-09-11', 'September 11 attacks'],
  ['2001-09-12', 'September 11 attacks'],
  ['2001-09-13', 'September 11 attacks'],
  ['2001-09-14', 'September 11 attacks'],
  ['2004-06-11', 'national day of mourning (Ronald Reagan)'],
  ['2007-01-02', 'national day of mourning (Gerald Ford)'],
  ['2012-10-29', 'Hurricane Sandy'],
  ['2012-10-30', 'Hurricane Sandy'],
  ['2018-12-05', 'national day of mourning (George H. W. Bush)'],
  ['2025-01-09', 'national day of mourning (Jimmy Carter)'],
];

/** Early closes outside the rules. */
const specialEarlyCloses = ['2003-12-26'];

function holidays(year: number): DatedRule[] {
  const days: DatedRule[] = [
    // New Year's Day on a Saturday is not observed on the Friday before.
    [sundayToMonday(ymd(year, 1, 1)), "New Year's Day"],
    [nthWeekday(year, 1, Weekday.monday, 3), 'Martin Luther King Jr. Day'],
    [nthWeekday(year, 2, Weekday.monday, 3), "Washington's Birthday"],
    [easterOffset(year, -2), 'Good Friday'],
    [nthWeekday(year, 5, Weekday.monday, -1), 'Memorial Day'],
    [nearestWorkday(ymd(year, 7, 4)), 'Independence Day'],
    [nthWeekday(year, 9, Weekday.monday, 1), 'Labor Day'],
    [nthWeekday(year, 11, Weekday.thursday, 4), 'Thanksgiving Day'],
    [nearestWorkday(ymd(year, 12, 25)), 'Christmas Day'],
  ];
  if (year >= 2022) days.push([nearestWorkday(ymd(year, 6, 19)), 'Juneteenth']);
  return [...days, ...specialClosures.filter(([day]) => day.startsWith(`${year}-`))];
}

function earlyCloses(year: number): DatedRule[] {
  const days: DatedRule[] = [[addDays(nthWeekday(year, 11, Weekday.thursday, 4), 1), 'day after Thanksgiving']];
  const julyThird = ymd(year, 7, 3);
  const julyThirdWeekdays: number[] = [Weekday.monday, Weekday.tuesday, Weekday.thursday];
  if (year >= 2013) julyThirdWeekdays.push(Weekday.wednesday);
  if (julyThirdWeekdays.includes(weekday(julyThird))) days.push([julyThird, 'eve of Independence Day']);
  // Before 2013, when July 4 was a Thursday the Friday after closed early instead.
  const julyFifth = ymd(year, 7, 5);
  if (year < 2013 && weekday(julyFifth) === Weekday.friday) days.push([julyFifth, 'day after Independence Day']);
  const christmasEve = ymd(year, 12, 24);
  if (weekday(christmasEve) !== Weekday.friday) days.push([christmasEve, 'Christmas Eve']);
  return [...days, ...tableDays(specialEarlyCloses, year, 'special early close')];
}

export const xnys: Exchange = {
  mic: 'XNYS',
  name: 'New York Stock Exchange',
  zone: 'America/New_York',
  currency: 'USD',
  suffixes: [''],
  hours: [{ from: '0000-01-01', open: '09:30', close: '16:00', earlyClose: '13:00' }],
  holidays,
  earlyCloses,
};
