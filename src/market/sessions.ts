/**
 * The US equity market's calendar (NYSE full-day closures), computed by rule, and the
 * instant a session closes. A historical run's clock is its day's close, 16:00 in
 * New York; the offset comes from the platform's time-zone data, so DST is right for
 * any year. Early closes (13:00 on some eves) do not matter here: 16:00 is after them.
 *
 * Days are ISO strings (YYYY-MM-DD) and all date arithmetic is done in UTC, where a
 * day is always 24 hours.
 */

export const marketTimeZone = 'America/New_York';

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A valid calendar day as YYYY-MM-DD, else null (2025-02-30 is not a day). */
export function parseDay(text: string): string | null {
  const match = dayPattern.exec(text.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return toDay(date);
}

function toDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function fromDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

export function addDays(day: string, days: number): string {
  return toDay(new Date(fromDay(day).getTime() + days * 86_400_000));
}

function weekday(day: string): number {
  return fromDay(day).getUTCDay();
}

function ymd(year: number, month: number, date: number): string {
  return toDay(new Date(Date.UTC(year, month - 1, date)));
}

/** The n-th (1-based) given weekday of a month; n = -1 for the last one. */
function nthWeekday(year: number, month: number, weekdayNumber: number, n: number): string {
  if (n > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return ymd(year, month, 1 + ((weekdayNumber - first + 7) % 7) + (n - 1) * 7);
  }
  const lastDate = new Date(Date.UTC(year, month, 0));
  const back = (lastDate.getUTCDay() - weekdayNumber + 7) % 7;
  return ymd(year, month, lastDate.getUTCDate() - back);
}

/** Western Easter Sunday (anonymous Gregorian algorithm). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const date = ((h + l - 7 * m + 114) % 31) + 1;
  return ymd(year, month, date);
}

/** A fixed-date holiday on a weekend is observed on the Friday before or the Monday after. */
function observed(day: string): string {
  const dayOfWeek = weekday(day);
  if (dayOfWeek === 6) return addDays(day, -1);
  if (dayOfWeek === 0) return addDays(day, 1);
  return day;
}

/**
 * Closures that no rule predicts: national days of mourning and emergencies since 2001.
 * Kept short on purpose; a missing one shows up as a session with no bar.
 */
const specialClosures: Record<string, string> = {
  '2001-09-11': 'September 11 attacks',
  '2001-09-12': 'September 11 attacks',
  '2001-09-13': 'September 11 attacks',
  '2001-09-14': 'September 11 attacks',
  '2004-06-11': 'national day of mourning (Ronald Reagan)',
  '2007-01-02': 'national day of mourning (Gerald Ford)',
  '2012-10-29': 'Hurricane Sandy',
  '2012-10-30': 'Hurricane Sandy',
  '2018-12-05': 'national day of mourning (George H. W. Bush)',
  '2025-01-09': 'national day of mourning (Jimmy Carter)',
};

/**
 * Each year's holidays, computed once: an evaluation asks "is this a session?" hundreds of
 * thousands of times. A pure function's memo, a few dozen entries at most.
 */
const holidaysByYear = new Map<number, ReadonlyMap<string, string>>();

/** The NYSE's full-day holidays of one year, by rule: day → name. */
export function marketHolidays(year: number): ReadonlyMap<string, string> {
  let holidays = holidaysByYear.get(year);
  if (!holidays) {
    holidays = holidaysOf(year);
    holidaysByYear.set(year, holidays);
  }
  return holidays;
}

function holidaysOf(year: number): Map<string, string> {
  const holidays = new Map<string, string>();
  // New Year's Day on a Saturday is not observed on the Friday before (NYSE Rule 7.2).
  const newYear = ymd(year, 1, 1);
  if (weekday(newYear) !== 6) holidays.set(observed(newYear), "New Year's Day");
  if (year >= 1998) holidays.set(nthWeekday(year, 1, 1, 3), 'Martin Luther King Jr. Day');
  holidays.set(nthWeekday(year, 2, 1, 3), "Washington's Birthday");
  holidays.set(addDays(easterSunday(year), -2), 'Good Friday');
  holidays.set(nthWeekday(year, 5, 1, -1), 'Memorial Day');
  if (year >= 2022) holidays.set(observed(ymd(year, 6, 19)), 'Juneteenth');
  holidays.set(observed(ymd(year, 7, 4)), 'Independence Day');
  holidays.set(nthWeekday(year, 9, 1, 1), 'Labor Day');
  holidays.set(nthWeekday(year, 11, 4, 4), 'Thanksgiving Day');
  holidays.set(observed(ymd(year, 12, 25)), 'Christmas Day');
  for (const [day, name] of Object.entries(specialClosures)) if (day.startsWith(`${year}-`)) holidays.set(day, name);
  return holidays;
}

/** Why the market was closed that day ("Saturday", "Good Friday"), or null on a session. */
export function closureReason(day: string): string | null {
  const dayOfWeek = weekday(day);
  if (dayOfWeek === 6) return 'a Saturday';
  if (dayOfWeek === 0) return 'a Sunday';
  const holiday = marketHolidays(Number(day.slice(0, 4))).get(day);
  return holiday ? `a US market holiday (${holiday})` : null;
}

export function isSession(day: string): boolean {
  return closureReason(day) === null;
}

/** The nearest session strictly before (-1) or after (+1) a day. */
export function adjacentSession(day: string, direction: 1 | -1): string {
  let candidate = addDays(day, direction);
  while (!isSession(candidate)) candidate = addDays(candidate, direction);
  return candidate;
}

/**
 * One formatter for the whole process: constructing an Intl.DateTimeFormat costs
 * milliseconds (it loads time-zone data), formatting with one costs microseconds, and
 * an evaluation asks for thousands of session closes. Made on first use, so start-up
 * (`--help`) does not pay for it.
 */
let offsetFormatter: Intl.DateTimeFormat | null = null;

function newYorkOffsetFormatter(): Intl.DateTimeFormat {
  offsetFormatter ??= new Intl.DateTimeFormat('en-US', { timeZone: marketTimeZone, timeZoneName: 'longOffset' });
  return offsetFormatter;
}

/** The UTC offset of New York at an instant, in minutes (-240 in summer, -300 in winter). */
function newYorkOffsetMinutes(at: Date): number {
  const label = newYorkOffsetFormatter()
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(label ?? '');
  if (!match) throw new Error(`no UTC offset for ${marketTimeZone} (time-zone data missing: '${label ?? ''}')`);
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** The instant of 16:00 New York time on a day: a session's close. */
export function sessionClose(day: string): Date {
  // Noon UTC is in the same New York day on either side of a DST change at 02:00.
  const offset = newYorkOffsetMinutes(new Date(`${day}T12:00:00Z`));
  return new Date(Date.parse(`${day}T16:00:00Z`) - offset * 60_000);
}

/** The instant of 09:30 New York time on a day: a session's open. */
export function sessionOpen(day: string): Date {
  return new Date(sessionClose(day).getTime() - 6.5 * 3_600_000);
}

/**
 * The first session whose open comes after an instant: a decision made during a session
 * or after its close enters at the next one; one made before the bell, at that day's.
 */
export function nextSessionAfter(at: Date): string {
  const day = newYorkDay(at);
  if (isSession(day) && at.getTime() < sessionOpen(day).getTime()) return day;
  return adjacentSession(day, 1);
}

/** The n-th session after a day (n ≥ 1). */
export function sessionsAfter(day: string, count: number): string {
  let current = day;
  for (let step = 0; step < count; step += 1) current = adjacentSession(current, 1);
  return current;
}

/** The New York calendar day of an instant. */
export function newYorkDay(at: Date): string {
  return new Date(at.getTime() + newYorkOffsetMinutes(at) * 60_000).toISOString().slice(0, 10);
}

/** The latest session whose close is at or before `now`. */
export function latestClosedSession(now: Date): string {
  let day = newYorkDay(now);
  while (!isSession(day) || sessionClose(day).getTime() > now.getTime()) day = addDays(day, -1);
  return day;
}
