import { easterOffset, ymd } from '../days.js';
import type { DatedRule } from '../exchange.js';

/**
 * The holidays and early closes Euronext Paris and Amsterdam share since the 2002
 * harmonisation (exchange_calendars' XPAR and XAMS): Christmas Eve and, from 2002,
 * New Year's Eve close at 14:05; before 2002 New Year's Eve was a holiday.
 */

export function euronextHolidays(year: number): DatedRule[] {
  const days: DatedRule[] = [
    [ymd(year, 1, 1), "New Year's Day"],
    [easterOffset(year, -2), 'Good Friday'],
    [easterOffset(year, 1), 'Easter Monday'],
    [ymd(year, 5, 1), 'Labour Day'],
    [ymd(year, 12, 25), 'Christmas Day'],
    [ymd(year, 12, 26), 'Boxing Day'],
  ];
  if (year < 2002) days.push([easterOffset(year, 50), 'Whit Monday'], [ymd(year, 12, 31), "New Year's Eve"]);
  return days;
}

export function euronextEarlyCloses(year: number): DatedRule[] {
  const days: DatedRule[] = [[ymd(year, 12, 24), 'Christmas Eve']];
  if (year >= 2002) days.push([ymd(year, 12, 31), "New Year's Eve"]);
  return days;
}

export const euronextHours = [{ from: '0000-01-01', open: '09:00', close: '17:30', earlyClose: '14:05' }] as const;
