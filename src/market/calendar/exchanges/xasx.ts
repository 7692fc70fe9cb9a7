import { Weekday, easterOffset, nthWeekday, previousFriday, sundayToMonday, weekendToMonday, ymd } from '../days.js';
import { britishChristmas, type DatedRule, type Exchange } from '../exchange.js';

/**
 * The Australian Securities Exchange (Sydney): 10:00–16:00, closing at 14:10 on the
 * last sessions before Christmas and New Year (2010–2021 and from 2023). Rules as in
 * exchange_calendars' XASX.
 */

const specialClosures: readonly DatedRule[] = [
  ['2011-04-26', 'Easter Tuesday (Anzac Day on Easter Monday)'],
  ['2022-09-22', 'National Day of Mourning for Queen Elizabeth II'],
];

function anzacDay(year: number): string {
  const day = ymd(year, 4, 25);
  // Observed on the Monday only in 2010; otherwise a weekend Anzac Day is lost.
  return year === 2010 ? sundayToMonday(day) : day;
}

function holidays(year: number): DatedRule[] {
  return [
    [weekendToMonday(ymd(year, 1, 1)), "New Year's Day"],
    [weekendToMonday(ymd(year, 1, 26)), 'Australia Day'],
    [easterOffset(year, -2), 'Good Friday'],
    [easterOffset(year, 1), 'Easter Monday'],
    [anzacDay(year), 'Anzac Day'],
    [nthWeekday(year, 6, Weekday.monday, 2), year < 2023 ? "Queen's Birthday" : "King's Birthday"],
    ...britishChristmas(year),
    ...specialClosures.filter(([day]) => day.startsWith(`${year}-`)),
  ];
}

function earlyCloses(year: number): DatedRule[] {
  if (year < 2010 || year === 2022) return [];
  return [
    [previousFriday(ymd(year, 12, 24)), 'last session before Christmas'],
    [previousFriday(ymd(year, 12, 31)), 'last session of the year'],
  ];
}

export const xasx: Exchange = {
  mic: 'XASX',
  name: 'Australian Securities Exchange',
  zone: 'Australia/Sydney',
  currency: 'AUD',
  suffixes: ['AX'],
  hours: [{ from: '0000-01-01', open: '10:00', close: '16:00', earlyClose: '14:10' }],
  holidays,
  earlyCloses,
};
