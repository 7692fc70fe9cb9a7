/**
 * Wall-clock times in an IANA zone as instants, and the zone's calendar day of an
 * instant. The offsets come from the platform's time-zone data, so daylight saving is
 * right for any year and any zone.
 */

/**
 * One formatter per zone for the whole process: constructing an Intl.DateTimeFormat costs
 * milliseconds (it loads time-zone data), formatting with one costs microseconds, and an
 * evaluation asks for thousands of session closes. Made on first use, so start-up
 * (`--help`) does not pay for it.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The zone's UTC offset at an instant, in minutes (-240 for New York in summer, +540 for Tokyo). */
export function offsetMinutes(zone: string, at: Date): number {
  const label = offsetFormatter(zone)
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  if (label === 'GMT') return 0;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(label ?? '');
  if (!match) throw new Error(`no UTC offset for ${zone} (time-zone data missing: '${label ?? ''}')`);
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** The instant of a wall-clock time (HH:MM) on a day in a zone. */
export function zonedInstant(zone: string, day: string, time: string): Date {
  const wall = Date.parse(`${day}T${time}:00Z`);
  // The offset at the wall time read as UTC is right unless a DST change lies between
  // the two; a second look at the corrected instant settles it (sessions never sit in a gap).
  const first = wall - offsetMinutes(zone, new Date(wall)) * 60_000;
  return new Date(wall - offsetMinutes(zone, new Date(first)) * 60_000);
}

/** The zone's calendar day (YYYY-MM-DD) of an instant. */
export function zonedDay(zone: string, at: Date): string {
  return new Date(at.getTime() + offsetMinutes(zone, at) * 60_000).toISOString().slice(0, 10);
}
