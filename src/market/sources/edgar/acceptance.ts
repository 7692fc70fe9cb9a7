import { defaultMic, exchanges } from '../../calendar/index.js';
import { zonedInstant } from '../../calendar/zone.js';
import type { Filing, FilingColumns } from './documents.js';

/**
 * When a filing became public. EDGAR's `acceptanceDateTime` often ends in a `Z` that is
 * not true: Apple's 10-K of 2024-11-01 says 06:01 "UTC", when EDGAR was closed; it is New
 * York wall time. Reading every value as New York time is the safe side: for a filer that
 * sends true UTC it makes a filing public 4 or 5 hours later than it was, so it can hide a
 * filing from a run, never show one early. `filed` alone is a date, not a time, and a
 * 10-Q accepted at 16:31 keeps its day: it is used only when the index has no time.
 */

/** SEC's clock is New York's: the US exchange's zone, from the calendar (the one place that names it). */
const secZone = exchanges.find((exchange) => exchange.mic === defaultMic)!.zone;

/** The New York offset on a day, in milliseconds (4 h in summer, 5 h in winter): 16:00 there as an instant − 16:00 UTC. */
function newYorkOffsetMs(day: string): number {
  return zonedInstant(secZone, day, '16:00').getTime() - Date.parse(`${day}T16:00:00Z`);
}

/** `2019-07-31T16:31:53.000Z` → `2019-07-31T20:31:53.000Z`: the wall time read in New York. */
export function acceptedInstant(text: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(text);
  if (!match) return null;
  const [, day, time] = match;
  const wall = Date.parse(`${day!}T${time!}Z`);
  if (!Number.isFinite(wall)) return null;
  return new Date(wall + newYorkOffsetMs(day!)).toISOString();
}

/** A filing with no acceptance time in the index is taken as public at the end of its filing day (New York): never early. */
export function endOfFilingDay(day: string): string {
  return new Date(zonedInstant(secZone, day, '16:00').getTime() + 8 * 3_600_000).toISOString();
}

/** One page of the column-oriented index as filings; rows without a readable time fall back to their filing day. */
export function filingsOf(columns: FilingColumns): Filing[] {
  return columns.accessionNumber.map((accession, index) => {
    const filingDate = columns.filingDate[index] ?? '';
    const accepted = acceptedInstant(columns.acceptanceDateTime[index] ?? '');
    const items = columns.items?.[index] ?? '';
    return {
      accession,
      form: columns.form[index] ?? '',
      filingDate,
      acceptedAt: accepted ?? endOfFilingDay(filingDate),
      items: items === '' ? [] : items.split(',').map((item) => item.trim()),
    };
  });
}
