import { easterOffset, previousWeekday, ymd } from '../days.js';
import type { DatedRule, Exchange } from '../exchange.js';

/**
 * Xetra (Deutsche Börse, Frankfurt): 09:00–17:30 Berlin time; from 2010 the last
 * session before 31 December closes at 14:00. Rules as in exchange_calendars' XETR.
 */

function holidays(year: number): DatedRule[] {
  const days: DatedRule[] = [
    [ymd(year, 1, 1), "New Year's Day"],
    [easterOffset(year, -2), 'Good Friday'],
    [easterOffset(year, 1), 'Easter Monday'],
    [ymd(year, 5, 1), 'Labour Day'],
    [ymd(year, 12, 24), 'Christmas Eve'],
    [ymd(year, 12, 25), 'Christmas Day'],
    [ymd(year, 12, 26), 'Boxing Day'],
    [ymd(year, 12, 31), "New Year's Eve"],
  ];
  // Whit Monday and German Unity Day were holidays only in these years.
  if (year === 2007 || (year >= 2015 && year <= 2021)) days.push([easterOffset(year, 50), 'Whit Monday']);
  if (year >= 2014 && year <= 2021) days.push([ymd(year, 10, 3), 'Day of German Unity']);
  if (year === 2017) days.push(['2017-10-31', 'Reformation Day (500th anniversary)']);
  return days;
}

function earlyCloses(year: number): DatedRule[] {
  return year >= 2010 ? [[previousWeekday(ymd(year, 12, 31)), 'last session of the year']] : [];
}

export const xetr: Exchange = {
  mic: 'XETR',
  name: 'Xetra (Deutsche Börse)',
  zone: 'Europe/Berlin',
  currency: 'EUR',
  suffixes: ['DE'],
  hours: [{ from: '0000-01-01', open: '09:00', close: '17:30', earlyClose: '14:00' }],
  holidays,
  earlyCloses,
};
