import { parseDay } from '../market/sessions.js';
import type { AnalysisResult } from '../result/types.js';

/**
 * Whether a saved run can be scored at all: a result.json that passed the store's loose
 * schema may still carry a date no calendar has (`asOf: "garbage"`, a bar dated
 * 2025-13-45), which would otherwise end the whole evaluation with "Invalid time
 * value". Such a run is skipped with its id and this reason; the rest is scored.
 */

/** Echoed file content is cut short: a saved file is untrusted and may be huge. */
function quoted(text: string): string {
  return text.length <= 40 ? `'${text}'` : `'${text.slice(0, 40)}…' (${text.length} characters)`;
}

export function unscorableReason(result: AnalysisResult): string | null {
  if (!Number.isFinite(Date.parse(result.asOf)) || !/^\d{4}-\d{2}-\d{2}/.test(result.asOf))
    return `its asOf ${quoted(String(result.asOf))} is not a date`;
  if (parseDay(result.asOf.slice(0, 10)) === null) return `its asOf ${quoted(result.asOf)} is not a calendar day`;
  for (const bar of result.market?.bars ?? []) {
    if (typeof bar.date !== 'string' || parseDay(bar.date) === null)
      return `a saved bar is dated ${quoted(String(bar.date))}, not a calendar day`;
  }
  return null;
}
