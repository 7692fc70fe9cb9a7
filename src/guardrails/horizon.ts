/**
 * How many trading sessions a decision's free-text time horizon spans ("1–2 weeks",
 * "3 months", "5 days", "intraday"): the upper end of a range, so a target is judged
 * against the longest horizon the Director allowed itself. null when the text names
 * no unit the guardrails understand.
 */

const sessionsPerUnit: ReadonlyArray<readonly [RegExp, number]> = [
  [/^(?:trading\s+)?(?:days?|sessions?|d)$/, 1],
  [/^(?:weeks?|wks?|w)$/, 5],
  [/^(?:months?|mos?|m)$/, 21],
  [/^(?:quarters?|q)$/, 63],
  [/^(?:years?|yrs?|y)$/, 252],
];

const singleSessionWords = /\b(?:intraday|overnight|same[-\s]day|today)\b/;

/** A number, optionally a range ("1–2", "2-6", "1 to 2"), then a unit word. */
const amountWithUnit = /(\d+(?:\.\d+)?)(?:\s*(?:-|–|—|to)\s*(\d+(?:\.\d+)?))?\s*([a-z]+(?:\s+[a-z]+)?)/g;

export function horizonSessions(text: string): number | null {
  const normalized = text.toLowerCase();
  let longest: number | null = null;
  for (const match of normalized.matchAll(amountWithUnit)) {
    const amount = Number(match[2] ?? match[1]);
    const perUnit = unitSessions(match[3] ?? '');
    if (perUnit === null || !Number.isFinite(amount) || amount <= 0) continue;
    longest = Math.max(longest ?? 0, amount * perUnit);
  }
  if (longest !== null) return Math.max(1, Math.round(longest));
  return singleSessionWords.test(normalized) ? 1 : null;
}

function unitSessions(words: string): number | null {
  // "3 trading days" is two words; "2 weeks or so" starts with the unit.
  const candidates = [words, words.split(/\s+/)[0] ?? ''];
  for (const candidate of candidates) {
    for (const [pattern, sessions] of sessionsPerUnit) if (pattern.test(candidate)) return sessions;
  }
  return null;
}
