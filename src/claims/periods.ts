/**
 * The fundamentals period a sentence names ("Q3", "fiscal 2025", "the latest quarter"), and
 * whether a filed period is that one. Periods are told by their dates, never by a filing's
 * fy/fp: a "Q3" is the quarter ending in the third calendar quarter or the third fiscal one.
 */

export interface NamedPeriod {
  kind: 'quarter' | 'year' | null;
  /** 1 … 4 for "Q3" / "third quarter". */
  quarter?: number;
  /** The year a period is named by ("fiscal 2025", "Q3 2025"). */
  year?: number;
  /** 0 for the latest ("the latest quarter"), 1 for the one before ("the prior year"). */
  offset?: number;
  /** The month a quarter ends in ("the June quarter", "the quarter ended September 27"). */
  month?: number;
  /** The words say "fiscal" ("third fiscal quarter", "Q3 FY26"): the company's own quarters only. */
  fiscal?: boolean;
}

/** A filed period as the sources carry it. */
export interface PeriodRef {
  kind: 'quarter' | 'year';
  periodStart: string;
  periodEnd: string;
  label: string;
  /** Its place among the periods of its kind, newest first. */
  index: number;
  /** The month (1 … 12) the company's fiscal year ends in, when known. */
  fiscalYearEnd?: number;
}

const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const monthWord = String.raw`(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`;
const monthOfName = (name: string) => monthNames.indexOf(name.slice(0, 3).toLowerCase()) + 1;

const ordinals: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
};

const fullYear = (written: string | undefined): number | undefined => {
  if (!written) return undefined;
  const year = Number(written);
  return written.length === 2 ? 2000 + year : year;
};

/** The patterns of period names, each with how it reads. */
const periodPatterns: ReadonlyArray<[RegExp, (match: RegExpExecArray) => NamedPeriod]> = [
  [
    /\bQ([1-4])\s*(?:FY\s*)?['’]?(\d{4}|\d{2})?\b/gi,
    (match) => ({ kind: 'quarter', quarter: Number(match[1]), year: fullYear(match[2]), fiscal: /FY/i.test(match[0]) }),
  ],
  [
    /\b([1-4])Q\s*['’]?(\d{4}|\d{2})?\b/g,
    (match) => ({ kind: 'quarter', quarter: Number(match[1]), year: fullYear(match[2]) }),
  ],
  [
    /\b(?:(?:fiscal|FY)\s+)?(first|second|third|fourth|1st|2nd|3rd|4th)[- ](?:fiscal[- ])?quarter(?:\s+of)?(?:\s+(?:fiscal|FY)\s*)?(?:\s*(\d{4}))?/gi,
    (match) => ({
      kind: 'quarter',
      quarter: ordinals[match[1]!.toLowerCase()],
      year: fullYear(match[2]),
      fiscal: /fiscal|FY/i.test(match[0]),
    }),
  ],
  [
    new RegExp(
      String.raw`\b${monthWord}(?:\s+\d{4})?\s+quarter\b|\bquarter\s+(?:ended|ending|to)\s+(?:on\s+)?${monthWord}`,
      'gi',
    ),
    (match) => ({ kind: 'quarter', month: monthOfName(match[1] ?? match[2]!) }),
  ],
  [/\b(?:fiscal(?:\s+year)?|FY)\s*['’]?(\d{4}|\d{2})\b/gi, (match) => ({ kind: 'year', year: fullYear(match[1]) })],
  [/\b(?:full[- ]year|calendar[- ]year|year)\s+(\d{4})\b/gi, (match) => ({ kind: 'year', year: fullYear(match[1]) })],
  [/\b(\d{4})\s+(?:full[- ]year|annual|fiscal\s+year)\b/gi, (match) => ({ kind: 'year', year: fullYear(match[1]) })],
  [/\b(?:prior|previous|preceding|sequentially\s+earlier)\s+quarter\b/gi, () => ({ kind: 'quarter', offset: 1 })],
  [/\b(?:prior|previous|preceding)\s+(?:fiscal\s+)?year\b/gi, () => ({ kind: 'year', offset: 1 })],
  [
    /\b(?:latest|last|most\s+recent|recent|just[- ]reported|reported|current|this)\s+(?:fiscal\s+)?quarter\b|\bquarterly\b/gi,
    () => ({ kind: 'quarter', offset: 0 }),
  ],
  [
    /\b(?:latest|last|most\s+recent|recent|just[- ]reported|reported)\s+(?:fiscal\s+year|full\s+year|year|FY|annual\s+report)\b|\b(?:full[- ]year|annual|annually)\b/gi,
    () => ({ kind: 'year', offset: 0 }),
  ],
];

/**
 * The period a sentence names nearest to a figure at `at` (a name before the figure wins a
 * tie), or null when the sentence names none.
 */
export function namedPeriod(sentence: string, at: number): NamedPeriod | null {
  let best: { period: NamedPeriod; distance: number } | null = null;
  for (const [pattern, read] of periodPatterns) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(sentence); match; match = pattern.exec(sentence)) {
      const distance = match.index < at ? at - (match.index + match[0].length) : (match.index - at) * 1.5;
      if (best === null || distance < best.distance) best = { period: read(match), distance };
    }
  }
  return best?.period ?? null;
}

/** A date moved back half a month: a 52/53-week year ending 2025-10-02 is September's. */
function monthOf(date: string): { year: number; month: number } {
  const time = Date.parse(`${date}T00:00:00Z`) - 15 * 86_400_000;
  const moved = new Date(time);
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1 };
}

function quarterMatches(named: NamedPeriod, period: PeriodRef): boolean {
  const { year, month } = monthOf(period.periodEnd);
  const calendarQuarter = Math.ceil(month / 3);
  const fiscalQuarter =
    period.fiscalYearEnd !== undefined ? Math.floor(((month - period.fiscalYearEnd + 11) % 12) / 3) + 1 : null;
  const fiscalYear = period.fiscalYearEnd !== undefined && month > period.fiscalYearEnd ? year + 1 : year;
  const calendar = named.quarter === calendarQuarter && (named.year === undefined || named.year === year);
  const fiscal = named.quarter === fiscalQuarter && (named.year === undefined || named.year === fiscalYear);
  return named.fiscal && fiscalQuarter !== null ? fiscal : calendar || fiscal;
}

/** Whether a filed period is the one the words name; with no name, the latest of either kind. */
export function periodMatches(named: NamedPeriod | null, period: PeriodRef): boolean {
  if (named === null) return period.index === 0;
  if (named.kind !== null && named.kind !== period.kind) return false;
  if (named.offset !== undefined) return period.index === named.offset;
  if (named.month !== undefined) return period.kind === 'quarter' && monthOf(period.periodEnd).month === named.month;
  if (named.quarter !== undefined) return period.kind === 'quarter' && quarterMatches(named, period);
  if (named.year !== undefined) return monthOf(period.periodEnd).year === named.year;
  return period.index === 0;
}
