/**
 * The look-back a text gives a general quantity (a return, a volatility): "over the last year",
 * "(1y)", "in six months", "over 20 days". It is read after the figure, between the name and the
 * figure, or before the name in the same clause; a look-back the data has no value for ("over
 * two years", "year to date") is kept as such, so the figure is never checked against another one.
 */
import type { PeriodWord } from './quantities.js';

const counts: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  nine: 9,
  ten: 10,
  twelve: 12,
  twenty: 20,
  'fifty-two': 52,
};

const count = String.raw`\d{1,3}|a|an|one|two|three|four|five|six|nine|ten|twelve|twenty|fifty-two`;
const unit = String.raw`trading[- ]days?|days?|sessions?|weeks?|months?|quarters?|years?|yrs?`;
const lead = String.raw`(?:over|in|across|for|during|through|within|on)\s+(?:the\s+)?(?:(?:past|last|prior|previous|trailing|latest)\s+)?|(?:past|last|prior|previous|trailing)\s+`;

/**
 * A look-back phrase: a lead word and a period ("over the last year", "in six months", "past
 * 20 sessions"), or a short code in parentheses ("(1y)", "(20d)", "(6m)"), or "year to date".
 */
export const lookBack = new RegExp(
  String.raw`\b(?:${lead})(?:(?<count>${count})[- ]?)?(?<unit>${unit})\b|\(\s*(?<code>\d{1,3}\s?(?:d|w|m|mo|y))\s*\)|\b(?<ytd>year[- ]to[- ]date|YTD)\b`,
  'gi',
);

/** How many days a unit holds, in trading days. */
const tradingDays: Record<string, number> = { d: 1, w: 5, m: 21, q: 63, y: 252 };

function unitLetter(written: string): string {
  const word = written.toLowerCase().replace(/^trading[- ]/, '');
  if (/^(?:day|session|d)/.test(word)) return 'd';
  if (/^(?:week|w)/.test(word)) return 'w';
  if (/^(?:month|m)/.test(word)) return 'm';
  if (/^quarter/.test(word)) return 'q';
  return 'y';
}

/** A number of trading days as the period word the quantities know, or null for one they do not. */
function wordOf(days: number): PeriodWord | null {
  const table: ReadonlyArray<[PeriodWord, number, number]> = [
    ['day', 1, 1],
    ['week', 5, 5],
    ['month', 20, 30],
    ['quarter', 60, 92],
    ['half', 120, 130],
    ['year', 250, 260],
  ];
  for (const [word, from, to] of table) if (days >= from && days <= to) return word;
  return null;
}

export interface LookBack {
  /** The period word, or null for a look-back the quantities have no value for. */
  period: PeriodWord | null;
  text: string;
  start: number;
  end: number;
}

/** The look-back a match states. */
function readLookBack(match: RegExpMatchArray, offset: number): LookBack {
  const groups = match.groups ?? {};
  const at = { text: match[0], start: offset + match.index!, end: offset + match.index! + match[0].length };
  if (groups.ytd) return { ...at, period: null };
  if (groups.code) {
    const number = Number(/\d+/.exec(groups.code)![0]);
    return { ...at, period: wordOf(number * tradingDays[unitLetter(groups.code.replace(/[\d\s]/g, ''))]!) };
  }
  const written = groups.count?.toLowerCase();
  const number = written === undefined ? 1 : (counts[written] ?? Number(written));
  const letter = unitLetter(groups.unit!);
  // Days and sessions are counted as written: 20 days is a month, 90 days a quarter.
  const days = letter === 'd' ? number : number * tradingDays[letter]!;
  return { ...at, period: wordOf(days) };
}

/** Every look-back phrase in a stretch of text that starts at `offset`. */
export function lookBacks(words: string, offset = 0): LookBack[] {
  return [...words.matchAll(lookBack)].map((match) => readLookBack(match, offset));
}
