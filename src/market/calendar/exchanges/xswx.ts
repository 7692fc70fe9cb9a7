import { easterOffset, ymd } from '../days.js';
import type { DatedRule, Exchange } from '../exchange.js';

/** SIX Swiss Exchange: 09:00–17:30 Zurich time, no early closes. Rules as in exchange_calendars' XSWX. */
function holidays(year: number): DatedRule[] {
  return [
    [ymd(year, 1, 1), "New Year's Day"],
    [ymd(year, 1, 2), "Berchtold's Day"],
    [easterOffset(year, -2), 'Good Friday'],
    [easterOffset(year, 1), 'Easter Monday'],
    [ymd(year, 5, 1), 'Labour Day'],
    [easterOffset(year, 39), 'Ascension Day'],
    [easterOffset(year, 50), 'Whit Monday'],
    [ymd(year, 8, 1), 'Swiss National Day'],
    [ymd(year, 12, 24), 'Christmas Eve'],
    [ymd(year, 12, 25), 'Christmas Day'],
    [ymd(year, 12, 26), "St. Stephen's Day"],
    [ymd(year, 12, 31), "New Year's Eve"],
  ];
}

export const xswx: Exchange = {
  mic: 'XSWX',
  name: 'SIX Swiss Exchange',
  zone: 'Europe/Zurich',
  currency: 'CHF',
  suffixes: ['SW'],
  hours: [{ from: '0000-01-01', open: '09:00', close: '17:30' }],
  holidays,
  earlyCloses: () => [],
};
