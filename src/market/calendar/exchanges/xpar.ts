import { ymd } from '../days.js';
import type { DatedRule, Exchange } from '../exchange.js';
import { euronextEarlyCloses, euronextHolidays, euronextHours } from './euronext.js';

/** Euronext Paris: the Euronext days, plus Bastille Day until 2001. */
function holidays(year: number): DatedRule[] {
  const days = euronextHolidays(year);
  if (year < 2002) days.push([ymd(year, 7, 14), 'Bastille Day']);
  return days;
}

export const xpar: Exchange = {
  mic: 'XPAR',
  name: 'Euronext Paris',
  zone: 'Europe/Paris',
  currency: 'EUR',
  suffixes: ['PA'],
  hours: euronextHours,
  holidays,
  earlyCloses: euronextEarlyCloses,
};
