import { addDays, isWeekend, weekday } from './days.js';
import type { DatedRule, Exchange, TradingHours } from './exchange.js';
import { zonedDay, zonedInstant } from './zone.js';

/** One trading session: its local day and its instants in ISO UTC. */
export interface Session {
  date: string;
  open: string;
  close: string;
  /** The lunch break, where the exchange has one and the session lasts past it. */
  breakStart?: string;
  breakEnd?: string;
  /** The session closes early (a holiday eve). */
  earlyClose?: true;
}

export interface ExchangeCalendar {
  readonly exchange: Exchange;
  isSession(day: string): boolean;
  /** Why the exchange was closed that day ("a Saturday", "Marine Day"), or null on a session. */
  closureReason(day: string): string | null;
  /** The session of a day, or null when the exchange was closed. */
  session(day: string): Session | null;
  /** Every session from one day to another, both included. */
  sessions(from: string, to: string): Session[];
  /** The instant a session opens; a day that is not a session gets its regular hours. */
  openAt(day: string): Date;
  /** The instant a session closes (early on an early-close day). */
  closeAt(day: string): Date;
  /** The nearest session strictly before (-1) or after (+1) a day. */
  adjacentSession(day: string, direction: 1 | -1): string;
  /** The n-th session after a day (n ≥ 1). */
  sessionsAfter(day: string, count: number): string;
  /** The first session whose open comes after an instant (a decision enters there). */
  nextSessionAfter(at: Date): string;
  /** The latest session whose close is at or before `now`. */
  latestClosedSession(now: Date): string;
  /** The exchange's local calendar day of an instant. */
  localDay(at: Date): string;
}

const weekdayNames = ['a Sunday', 'a Monday', 'a Tuesday', 'a Wednesday', 'a Thursday', 'a Friday', 'a Saturday'];

/** The rules' days of one year, gathered from the years either side (an observed day may cross New Year). */
function daysOfYear(rules: (year: number) => readonly DatedRule[], year: number): Map<string, string> {
  const days = new Map<string, string>();
  for (const candidate of [year - 1, year, year + 1]) {
    for (const [day, name] of rules(candidate)) {
      if (day.startsWith(`${year}-`) && !isWeekend(day) && !days.has(day)) days.set(day, name);
    }
  }
  return days;
}

function hoursOn(exchange: Exchange, day: string): TradingHours {
  let current = exchange.hours[0];
  for (const era of exchange.hours) if (era.from <= day) current = era;
  if (!current) throw new Error(`${exchange.mic} has no trading hours`);
  return current;
}

/** A calendar over an exchange's facts. Holidays are computed once a year and kept (an evaluation asks often). */
export function createExchangeCalendar(exchange: Exchange): ExchangeCalendar {
  const holidayMemo = new Map<number, Map<string, string>>();
  const earlyMemo = new Map<number, Map<string, string>>();
  const memoised = (memo: Map<number, Map<string, string>>, rules: Exchange['holidays'], year: number) => {
    let days = memo.get(year);
    if (!days) {
      days = daysOfYear(rules, year);
      memo.set(year, days);
    }
    return days;
  };
  const holidayName = (day: string) => memoised(holidayMemo, exchange.holidays, Number(day.slice(0, 4))).get(day);
  const isEarlyClose = (day: string) =>
    memoised(earlyMemo, exchange.earlyCloses, Number(day.slice(0, 4))).has(day) && holidayName(day) === undefined;

  const closureReason = (day: string): string | null => {
    if (isWeekend(day)) return weekdayNames[weekday(day)] ?? 'a weekend';
    const holiday = holidayName(day);
    return holiday ?? null;
  };
  const isSession = (day: string) => closureReason(day) === null;
  const openAt = (day: string) => zonedInstant(exchange.zone, day, hoursOn(exchange, day).open);
  const closeAt = (day: string) => {
    const hours = hoursOn(exchange, day);
    const early = hours.earlyClose !== undefined && isEarlyClose(day);
    return zonedInstant(exchange.zone, day, early ? (hours.earlyClose ?? hours.close) : hours.close);
  };
  const session = (day: string): Session | null => (isSession(day) ? sessionOf(exchange, day, openAt, closeAt) : null);
  const adjacentSession = (day: string, direction: 1 | -1) => {
    let candidate = addDays(day, direction);
    while (!isSession(candidate)) candidate = addDays(candidate, direction);
    return candidate;
  };
  const localDay = (at: Date) => zonedDay(exchange.zone, at);

  return {
    exchange,
    isSession,
    closureReason,
    session,
    sessions: (from, to) => {
      const found: Session[] = [];
      for (let day = from; day <= to; day = addDays(day, 1)) {
        const current = session(day);
        if (current) found.push(current);
      }
      return found;
    },
    openAt,
    closeAt,
    adjacentSession,
    sessionsAfter: (day, count) => {
      let current = day;
      for (let step = 0; step < count; step += 1) current = adjacentSession(current, 1);
      return current;
    },
    nextSessionAfter: (at) => {
      const day = localDay(at);
      if (isSession(day) && at.getTime() < openAt(day).getTime()) return day;
      return adjacentSession(day, 1);
    },
    latestClosedSession: (now) => {
      let day = localDay(now);
      while (!isSession(day) || closeAt(day).getTime() > now.getTime()) day = addDays(day, -1);
      return day;
    },
    localDay,
  };
}

function sessionOf(
  exchange: Exchange,
  day: string,
  openAt: (day: string) => Date,
  closeAt: (day: string) => Date,
): Session {
  const hours = hoursOn(exchange, day);
  const open = openAt(day);
  const close = closeAt(day);
  const found: Session = { date: day, open: open.toISOString(), close: close.toISOString() };
  if (hours.earlyClose !== undefined && close < zonedInstant(exchange.zone, day, hours.close)) found.earlyClose = true;
  if (hours.breakStart !== undefined && hours.breakEnd !== undefined) {
    const breakEnd = zonedInstant(exchange.zone, day, hours.breakEnd);
    // A session that closes before trading resumes (an early close in Hong Kong) has no break.
    if (close > breakEnd) {
      found.breakStart = zonedInstant(exchange.zone, day, hours.breakStart).toISOString();
      found.breakEnd = breakEnd.toISOString();
    }
  }
  return found;
}
