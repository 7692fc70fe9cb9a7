/**
 * One clock per run: prompts' "current date", chart periods and search windows all
 * come from asOf, so a replayed run sees the same time it was recorded at.
 */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function daysBefore(date: Date, days: number): Date {
  return new Date(date.getTime() - days * 86_400_000);
}

/**
 * `30 s`, `0.25 s`: a limit or a wait as people read it in a message, milliseconds kept
 * ("timed out after 0.1 s"). A measured duration on screen uses report/format.ts
 * `formatDuration` ("850 ms", "12.3 s", "2m 05s"); these are the only two.
 */
export function formatSeconds(milliseconds: number): string {
  return `${Number((milliseconds / 1000).toFixed(3))} s`;
}
