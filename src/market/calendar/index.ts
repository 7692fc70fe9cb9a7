/**
 * Exchange calendars: each exchange's zone, hours, holidays, early closes and lunch
 * breaks as rules and tables in the package, and the ticker → exchange mapping.
 */
export { createExchangeCalendar, type ExchangeCalendar, type Session } from './calendar.js';
export type { Exchange, TradingHours } from './exchange.js';
export { addDays, parseDay } from './days.js';
export {
  calendarOf,
  defaultMic,
  findCalendarOf,
  exchangeCalendar,
  exchangeOf,
  exchanges,
  supportedSuffixes,
} from './registry.js';
