/**
 * Calendar days as ISO strings (YYYY-MM-DD) and the rules exchanges use to place a
 * holiday: the n-th weekday of a month, Easter, and the "observed on" shifts for a
 * date that falls on a weekend. All arithmetic is in UTC, where a day is 24 hours.
 */

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayMs = 86_400_000;

export const Weekday = { sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6 } as const;

/** A valid calendar day as YYYY-MM-DD, else null (2025-02-30 is not a day). */
export function parseDay(text: string): string | null {
  const match = dayPattern.exec(text.trim());
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const day = ymd(year, month, date);
  return day === `${match[1]}-${match[2]}-${match[3]}` ? day : null;
}

export function ymd(year: number, month: number, date: number): string {
  return new Date(Date.UTC(year, month - 1, date)).toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay();
}

export function isWeekend(day: string): boolean {
  const dayOfWeek = weekday(day);
  return dayOfWeek === Weekday.saturday || dayOfWeek === Weekday.sunday;
}

/** The n-th (1-based) given weekday of a month; n = -1 for the last one. */
export function nthWeekday(year: number, month: number, weekdayNumber: number, n: number): string {
  if (n > 0) {
    const first = weekday(ymd(year, month, 1));
    return ymd(year, month, 1 + ((weekdayNumber - first + 7) % 7) + (n - 1) * 7);
  }
  const last = ymd(year, month + 1, 0);
  return addDays(last, -((weekday(last) - weekdayNumber + 7) % 7));
}

/** The given weekday on or before a day (a "last Monday before the 25th" rule). */
export function weekdayOnOrBefore(day: string, weekdayNumber: number): string {
  return addDays(day, -((weekday(day) - weekdayNumber + 7) % 7));
}

/** Western Easter Sunday (anonymous Gregorian algorithm). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const h = (19 * a + b - Math.floor(b / 4) - Math.floor((b - Math.floor((b + 8) / 25) + 1) / 3) + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * Math.floor(c / 4) - h - (c % 4)) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return ymd(year, month, ((h + l - 7 * m + 114) % 31) + 1);
}

/** Easter Sunday plus an offset in days (-2 Good Friday, +1 Easter Monday, +39 Ascension, +50 Whit Monday). */
export function easterOffset(year: number, days: number): string {
  return addDays(easterSunday(year), days);
}

// Observance rules: where a holiday that falls on a weekend is kept instead.

/** Sunday → Monday; a Saturday holiday is lost. */
export function sundayToMonday(day: string): string {
  return weekday(day) === Weekday.sunday ? addDays(day, 1) : day;
}

/** Saturday or Sunday → the Monday after. */
export function weekendToMonday(day: string): string {
  const dayOfWeek = weekday(day);
  if (dayOfWeek === Weekday.saturday) return addDays(day, 2);
  return dayOfWeek === Weekday.sunday ? addDays(day, 1) : day;
}

/** Saturday → the Friday before, Sunday → the Monday after. */
export function nearestWorkday(day: string): string {
  const dayOfWeek = weekday(day);
  if (dayOfWeek === Weekday.saturday) return addDays(day, -1);
  return dayOfWeek === Weekday.sunday ? addDays(day, 1) : day;
}

/** Saturday or Sunday → the Friday before. */
export function previousFriday(day: string): string {
  const dayOfWeek = weekday(day);
  if (dayOfWeek === Weekday.saturday) return addDays(day, -1);
  return dayOfWeek === Weekday.sunday ? addDays(day, -2) : day;
}

/** The weekday strictly before a day. */
export function previousWeekday(day: string): string {
  let candidate = addDays(day, -1);
  while (isWeekend(candidate)) candidate = addDays(candidate, -1);
  return candidate;
}
