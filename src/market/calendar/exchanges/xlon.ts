import { Weekday, easterOffset, nthWeekday, previousFriday, weekendToMonday, ymd } from '../days.js';
import { britishChristmas, type DatedRule, type Exchange } from '../exchange.js';

/**
 * The London Stock Exchange: 08:00–16:30 London time, closing at 12:30 on the last
 * sessions before Christmas and New Year. Rules as in exchange_calendars' XLON.
 */

/** Royal and state occasions since 2000, and the bank holidays they replaced. */
const specialClosures: readonly DatedRule[] = [
  ['2002-06-03', 'Golden Jubilee (moved Spring Bank Holiday)'],
  ['2002-06-04', 'Golden Jubilee'],
  ['2011-04-29', 'Royal Wedding'],
  ['2012-06-04', 'Diamond Jubilee (moved Spring Bank Holiday)'],
  ['2012-06-05', 'Diamond Jubilee'],
  ['2020-05-08', 'VE Day 75th anniversary (moved Early May Bank Holiday)'],
  ['2022-06-02', 'Platinum Jubilee (moved Spring Bank Holiday)'],
  ['2022-06-03', 'Platinum Jubilee'],
  ['2022-09-19', 'State Funeral of Queen Elizabeth II'],
  ['2023-05-08', 'Coronation of King Charles III'],
];

/** The years whose regular bank holiday was moved to a special day (above). */
const movedEarlyMay = new Set([2020]);
const movedSpring = new Set([2002, 2012, 2022]);

function holidays(year: number): DatedRule[] {
  const days: DatedRule[] = [
    [weekendToMonday(ymd(year, 1, 1)), "New Year's Day"],
    [easterOffset(year, -2), 'Good Friday'],
    [easterOffset(year, 1), 'Easter Monday'],
    [nthWeekday(year, 8, Weekday.monday, -1), 'Summer Bank Holiday'],
    ...britishChristmas(year),
  ];
  if (!movedEarlyMay.has(year)) days.push([nthWeekday(year, 5, Weekday.monday, 1), 'Early May Bank Holiday']);
  if (!movedSpring.has(year)) days.push([nthWeekday(year, 5, Weekday.monday, -1), 'Spring Bank Holiday']);
  return [...days, ...specialClosures.filter(([day]) => day.startsWith(`${year}-`))];
}

function earlyCloses(year: number): DatedRule[] {
  return [
    [previousFriday(ymd(year, 12, 24)), 'Christmas Eve'],
    [previousFriday(ymd(year, 12, 31)), "New Year's Eve"],
  ];
}

export const xlon: Exchange = {
  mic: 'XLON',
  name: 'London Stock Exchange',
  zone: 'Europe/London',
  currency: 'GBP',
  suffixes: ['L'],
  hours: [{ from: '0000-01-01', open: '08:00', close: '16:30', earlyClose: '12:30' }],
  holidays,
  earlyCloses,
};
