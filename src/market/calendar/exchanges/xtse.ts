import { Weekday, easterOffset, nthWeekday, weekdayOnOrBefore, weekendToMonday, ymd } from '../days.js';
import { britishChristmas, type DatedRule, type Exchange } from '../exchange.js';

/**
 * The Toronto Stock Exchange: 09:30–16:00 Toronto time; from 2010 a weekday Christmas
 * Eve closes at 13:00. Rules as in exchange_calendars' XTSE.
 */

function holidays(year: number): DatedRule[] {
  const days: DatedRule[] = [
    [weekendToMonday(ymd(year, 1, 1)), "New Year's Day"],
    [easterOffset(year, -2), 'Good Friday'],
    [weekdayOnOrBefore(ymd(year, 5, 24), Weekday.monday), 'Victoria Day'],
    [weekendToMonday(ymd(year, 7, 1)), 'Canada Day'],
    [nthWeekday(year, 8, Weekday.monday, 1), 'Civic Holiday'],
    [nthWeekday(year, 9, Weekday.monday, 1), 'Labour Day'],
    [nthWeekday(year, 10, Weekday.monday, 2), 'Thanksgiving Day'],
    ...britishChristmas(year),
  ];
  if (year >= 2008) days.push([nthWeekday(year, 2, Weekday.monday, 3), 'Family Day']);
  if (year === 2001) days.push(['2001-09-11', 'September 11 attacks'], ['2001-09-12', 'September 11 attacks']);
  return days;
}

function earlyCloses(year: number): DatedRule[] {
  return year >= 2010 ? [[ymd(year, 12, 24), 'Christmas Eve']] : [];
}

export const xtse: Exchange = {
  mic: 'XTSE',
  name: 'Toronto Stock Exchange',
  zone: 'America/Toronto',
  currency: 'CAD',
  suffixes: ['TO'],
  hours: [{ from: '0000-01-01', open: '09:30', close: '16:00', earlyClose: '13:00' }],
  holidays,
  earlyCloses,
};
