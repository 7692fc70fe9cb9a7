import type { AnalysisResult } from '../result/types.js';
// Echoed file content is cut short: a saved file is untrusted and may be huge.
import { quoteInput as quoted } from '../text.js';

/**
 * Whether a saved run can be scored at all: a result.json that passed the store's loose
 * schema may still carry a date no calendar has (`asOf: "garbage"`, a bar dated
 * 2025-13-45), which would otherwise end the whole evaluation with "Invalid time
 * value". Such a run is skipped with its id and this reason; the rest is scored.
 */

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const monthLengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** YYYY-MM-DD naming a real day (2025-02-29 does not). Arithmetic, not a Date: it runs once per saved bar. */
export function isCalendarDay(text: string): boolean {
  const match = dayPattern.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const length = month === 2 && leap ? 29 : monthLengths[month - 1];
  return length !== undefined && day >= 1 && day <= length;
}

export function unscorableReason(result: AnalysisResult): string | null {
  if (!Number.isFinite(Date.parse(result.asOf)) || !/^\d{4}-\d{2}-\d{2}/.test(result.asOf))
    return `its asOf ${quoted(String(result.asOf))} is not a date`;
  if (!isCalendarDay(result.asOf.slice(0, 10))) return `its asOf ${quoted(result.asOf)} is not a calendar day`;
  for (const bar of result.market?.bars ?? []) {
    if (typeof bar.date !== 'string' || !isCalendarDay(bar.date))
      return `a saved bar is dated ${quoted(String(bar.date))}, not a calendar day`;
  }
  return null;
}
