import { easterOffset, ymd } from '../days.js';
import type { DatedRule, Exchange } from '../exchange.js';
import { euronextEarlyCloses, euronextHolidays, euronextHours } from './euronext.js';

/** Euronext Amsterdam: the Euronext days, plus Ascension Day until 2000 and Queen's Day until 2001. */
function holidays(year: number): DatedRule[] {
  const days = euronextHolidays(year);
  if (year < 2001) days.push([easterOffset(year, 39), 'Ascension Day']);
  if (year < 2002) days.push([ymd(year, 4, 30), "Queen's Day"]);
  return days;
}

export const xams: Exchange = {
  mic: 'XAMS',
  name: 'Euronext Amsterdam',
  zone: 'Europe/Amsterdam',
  currency: 'EUR',
  suffixes: ['AS'],
  hours: euronextHours,
  holidays,
  earlyCloses: euronextEarlyCloses,
};
