import { Weekday, weekday, ymd } from './days.js';

/**
 * An exchange as data: where it is, when it trades, and the rules and tables of the
 * days it does not (or closes early). One file per exchange in `exchanges/`; the
 * calendar (calendar.ts) turns these facts into sessions. Rules follow the
 * exchange_calendars project (gerrymanoim/exchange_calendars), checked against its
 * recorded sessions where they exist.
 */

/** Local wall-clock times (HH:MM) of a session, from a first day on. */
export interface TradingHours {
  /** The first day (YYYY-MM-DD) these hours apply; the first era starts at '0000-01-01'. */
  from: string;
  open: string;
  close: string;
  /** The close on an early-close day. */
  earlyClose?: string;
  /** A lunch break (Tokyo, Hong Kong). */
  breakStart?: string;
  breakEnd?: string;
}

/** A holiday or early close: the day (before any weekend filtering) and its name. */
export type DatedRule = readonly [day: string, name: string];

export interface Exchange {
  /** ISO 10383 market identifier (XNYS, XLON, …). */
  mic: string;
  name: string;
  /** The IANA zone of the exchange's clock. */
  zone: string;
  /** The currency its shares trade in (ISO 4217, major unit). */
  currency: string;
  /** Ticker suffixes (the quote vendors' convention) that mean this exchange, without the dot ('' for no suffix). */
  suffixes: readonly string[];
  /** Regular hours by era, oldest first. */
  hours: readonly TradingHours[];
  /** Full-day closures of a year. A day on a weekend is ignored, so a rule need not filter. */
  holidays(year: number): readonly DatedRule[];
  /** Early closes of a year, at the era's `earlyClose`. A day that is not a session is ignored. */
  earlyCloses(year: number): readonly DatedRule[];
}

/** A table of days written as a whitespace-separated list (compact, and left alone by the formatter). */
export function dayList(text: string): readonly string[] {
  return text.trim().split(/\s+/);
}

/** The days of a table that fall in a year, with one name. */
export function tableDays(table: readonly string[], year: number, name: string): DatedRule[] {
  return table.filter((day) => day.startsWith(`${year}-`)).map((day) => [day, name] as const);
}

/** Christmas on a weekend moves to the 27th, Boxing Day on a weekend to the 28th (each only Monday or Tuesday). */
export function britishChristmas(year: number): DatedRule[] {
  const days: DatedRule[] = [
    [ymd(year, 12, 25), 'Christmas Day'],
    [ymd(year, 12, 26), 'Boxing Day'],
  ];
  for (const [date, name] of [
    [27, 'Christmas Day (observed)'],
    [28, 'Boxing Day (observed)'],
  ] as const) {
    const day = ymd(year, 12, date);
    if (weekday(day) === Weekday.monday || weekday(day) === Weekday.tuesday) days.push([day, name]);
  }
  return days;
}
