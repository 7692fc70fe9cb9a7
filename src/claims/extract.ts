import { bindFigure, type Binding } from './bind.js';
import { findQuantities, type QuantityMention } from './quantities.js';
import type { ClaimUnit } from './types.js';

/** A figure found in a text, before it is matched to a source. */
export interface Figure {
  text: string;
  start: number;
  end: number;
  value: number | string;
  unit: ClaimUnit;
  /** Half a unit of the last printed digit, in the value's own scale: what the figure rounds. */
  tolerance: number;
  /** Digits after the decimal point, and the scale a magnitude multiplies by (1e9 for "38.44 B"). */
  decimals: number;
  scale: number;
  /** True when the text gave a sign (+2.09 %, -27.11 %, "fell 3 %"): then the sign must match too. */
  signed: boolean;
  /** The quantity its words name (bind.ts), if any. */
  quantity: Binding | null;
}

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const monthName = String.raw`(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`;
const isoDate = /\b(\d{4})-(\d{2})-(\d{2})(?:T[\d:.]+Z?)?(?![\d-])/g;
const monthFirst = new RegExp(String.raw`\b${monthName}\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?(?![\w-])`, 'g');
const dayFirst = new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+${monthName}\.?(?:,?\s+(\d{4}))?(?![\w-])`, 'g');

/** Indicators that take a period parameter: the 14 of RSI(14), the 12,26,9 of MACD(12,26,9). */
const indicatorNames = String.raw`(?:RSI|ATR|SMA|EMA|DMA|WMA|HMA|MA|MACD|ADX|DMI|CCI|MFI|ROC|OBV|TRIX|Aroon|Stoch(?:astics?)?|Bollinger(?:\s+Bands?)?|BBands|BB|Keltner|Donchian|Williams\s?%R|%R|HV|vol)`;
/**
 * An indicator's period: a small integer in parentheses glued to its name ("RSI(14)", "EMA(20)"),
 * or one spaced from it that is a usual period ("RSI (14)", "MACD (12, 26, 9)"). A reading in
 * parentheses ("RSI (71.2)", "ATR (6.80)", "the 50-day (128.04)") is a figure.
 */
const usualPeriods = String.raw`(?:2|3|5|7|9|10|12|14|20|21|26|30|50|100|200)`;
const indicatorPeriod = new RegExp(
  String.raw`\b${indicatorNames}(?:\(\s*\d{1,3}(?:\s*,\s*\d{1,3}){0,2}\s*\)|\s\(\s*${usualPeriods}(?:\s*,\s*\d{1,3}){0,2}\s*\))`,
  'gi',
);
/** "RSI 14 reads 61": a usual period after the name, then a verb and the reading. */
const indicatorPeriodBeforeReading = new RegExp(
  String.raw`\b${indicatorNames}\s${usualPeriods}(?=\s+(?:reads?|reading|is|was|at|sits|stands|prints|of|=|:)\s*[+\-]?\d)`,
  'gi',
);

/**
 * Spans whose digits are no figures: web addresses, clock times, list markers, names that
 * carry a period or number (SMA 50, EMA(20), S&P 500, CB-7, Q3), durations (20-day, 3 months,
 * 4–8 weeks) and ordinals.
 */
const notFigures: readonly RegExp[] = [
  /\bhttps?:\/\/\S+|\bwww\.\S+|\b[\w.+-]+@[\w-]+\.[\w.]+/g,
  /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?(?:UTC|GMT|ET|EST|EDT|am|pm))?\b/gi,
  /^[ \t]*(?:\d{1,3}[.)]|\(\d{1,3}\))(?=\s)/gm,
  indicatorPeriod,
  indicatorPeriodBeforeReading,
  /\b(?:SMA|EMA|DMA|WMA|MA)\s?-?\d+\b(?!\.\d)/gi,
  /\b(?:S&P|Nasdaq|NASDAQ|Russell|FTSE|DAX|Dow|Nikkei|CAC|Stoxx|STOXX|Euro\s?Stoxx)\s?-?\d+\b/g,
  /\b\d+(?:\.\d+)?(?:\s?[–-]\s?\d+(?:\.\d+)?)?[- ]?(?:trading[- ])?(?:days?|weeks?|months?|years?|yrs?|sessions?|quarters?|hours?|minutes?|bars?)\b/gi,
  /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifty-two)[- ](?:days?|weeks?|months?|years?|sessions?)\b/gi,
  /\b\d+(?:st|nd|rd|th)\b/gi,
];

const numberPattern = /(?<![\w.,])([+\-−]?)(US\$|\$|€|£)?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?/g;

const scales: Record<string, number> = {
  t: 1e12,
  tn: 1e12,
  trillion: 1e12,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  m: 1e6,
  mn: 1e6,
  mm: 1e6,
  million: 1e6,
  k: 1e3,
  thousand: 1e3,
};

interface Suffix {
  unit: ClaimUnit;
  scale: number;
  length: number;
}

/** What follows a number: %, a multiple of ATR, a ratio, a scale (B, million) and a currency code. */
function readSuffix(after: string): Suffix | null {
  const percent = /^\s?(?:%|percent\b|per cent\b|pct\b|percentage points?\b|pp\b)/i.exec(after);
  if (percent) return { unit: 'percent', scale: 1, length: percent[0].length };
  // "2 × ATR", "2.0 ATRs", "1.5x ATR(14)" — but not "53.6 ATR 4.57", where ATR names the next figure.
  const atr =
    /^[\s-]?(?:(?:×|x|times)\s?(?:the\s+)?)?(?:ATRs?|average\s+true\s+ranges?)(?:\s?\(14\))?(?![\w(])(?!\s*(?:\(14\)\s*)?(?:of|at|is|was|:|=)?\s*\$?\d)/i.exec(
      after,
    );
  if (atr) return { unit: 'atr', scale: 1, length: atr[0].length };
  const multiple = /^\s?(?:×|x)(?![\w])|^ ?: ?1(?![\d.]|\s*=)|^\s?R(?![\w:/])/.exec(after);
  if (multiple) return { unit: 'ratio', scale: 1, length: multiple[0].length };
  const scaled =
    /^\s?(trillion|billion|million|thousand|tn|bn|mn|mm|[TBMK]|k)(?![A-Za-z])(\s?(?:USD|EUR|GBP|dollars?)\b)?/.exec(
      after,
    );
  if (scaled) {
    const scale = scales[scaled[1]!.toLowerCase()]!;
    return { unit: scaled[2] ? 'currency' : 'number', scale, length: scaled[0].length };
  }
  const currency = /^\s?(?:USD|EUR|GBP|CHF|JPY|CAD|dollars?)\b/.exec(after);
  if (currency) return { unit: 'currency', scale: 1, length: currency[0].length };
  return null;
}

/** Positions covered by spans, one flag a character: membership in constant time, however many spans. */
class Covered {
  private readonly flags: Uint8Array;
  constructor(length: number) {
    this.flags = new Uint8Array(length + 1);
  }
  add(from: number, to: number): void {
    this.flags.fill(1, from, to);
  }
  addAll(text: string, patterns: readonly RegExp[]): void {
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) this.add(match.index, match.index + match[0].length);
    }
  }
  has(at: number): boolean {
    return this.flags[at] === 1;
  }
}

/**
 * Every figure in a text, in order: prices, percentages, magnitudes, multiples, ratios, dates,
 * and plain numbers that have decimals, thousands separators or a named quantity before them.
 * Not figures: ordinals, list numbers, periods in names (SMA 50, RSI(14), 20-day), durations,
 * years in prose, clock times, web addresses, and bare whole numbers with no quantity ("3 of 3").
 */
export function extractFigures(text: string): Figure[] {
  // Most strings of a tool's JSON carry no digit, and so no figure: skip the name search.
  if (!/\d/.test(text)) return [];
  const mentions = findQuantities(text);
  // Digits inside a quantity's own name (the 14 of RSI(14), the 52 of 52-week high) are part of the name.
  const excluded = new Covered(text.length);
  excluded.addAll(text, notFigures);
  for (const mention of mentions) excluded.add(mention.start, mention.end);
  const dates = extractDates(text, excluded);
  const figures: Figure[] = [...dates];
  for (const date of dates) excluded.add(date.start, date.end);
  for (const match of text.matchAll(numberPattern)) {
    const figure = readNumber(text, match);
    if (figure && !excluded.has(figure.numberStart)) figures.push(figure.figure);
  }
  figures.sort((a, b) => a.start - b.start);
  return bindAll(text, figures, mentions);
}

/** Each figure's quantity; a bare whole number stays a figure only where its words name a quantity ("RSI 54"). */
function bindAll(text: string, figures: Figure[], mentions: readonly QuantityMention[]): Figure[] {
  const bound: Figure[] = [];
  for (const figure of figures) {
    if (figure.unit === 'date') {
      bound.push(figure);
      continue;
    }
    const quantity = bindFigure(text, figure, mentions, bound);
    const plainWhole =
      figure.unit === 'number' && figure.decimals === 0 && !figure.text.includes(',') && figure.scale === 1;
    if (plainWhole && (!quantity || quantity.distance || isYear(figure.value as number))) continue;
    if ((!quantity && noClaim(text, figure)) || hypothetical(text, figure)) continue;
    bound.push(withImpliedSign(text, { ...figure, quantity }));
  }
  return bound;
}

/**
 * Numbers that name no quantity and claim nothing of the data: a self-assessed score ("trend
 * score 0.80", "0.68 (0 very negative, 1 very positive)") and a round hypothetical ("a 10 %
 * move would be unusual").
 */
function noClaim(text: string, figure: Figure): boolean {
  const before = text.slice(Math.max(0, figure.start - 24), figure.start);
  const after = text.slice(figure.end, figure.end + 24);
  if (/\b(?:scores?|scored|scoring|rating|rated|grade)\s*(?:of|at|is|was|:|=)?\s*$/i.test(before)) return true;
  if (/^\s*(?:\(\s*0\b|on\s+a\s+0\b|\/\s*(?:1|10)\b|out\s+of\s+(?:1|10)\b)/i.test(after)) return true;
  // A count: "12,000 people", "40 distribution centres".
  if (figure.unit === 'number' && figure.decimals === 0 && figure.scale === 1 && /^\s+[a-z]/.test(after)) return true;
  return (
    figure.unit === 'percent' &&
    figure.decimals === 0 &&
    !figure.signed &&
    /\b(?:a|an|another|any|every|each)\s+$/i.test(before)
  );
}

/**
 * A round percentage after "a", "an" or "any" in a clause that supposes ("A 10 % drawdown from
 * here would hurt", "if it fell a further 15 %"): a scenario, even where it names a quantity.
 */
function hypothetical(text: string, figure: Figure): boolean {
  if (figure.unit !== 'percent' || figure.decimals !== 0 || figure.signed) return false;
  const before = text.slice(Math.max(0, figure.start - 24), figure.start);
  if (!/\b(?:a|an|another|any|every|each|further)\s+$/i.test(before)) return false;
  const clause = text.slice(Math.max(0, figure.start - 60), Math.min(text.length, figure.end + 80));
  const sentence = clause.split(/[.!?;](?:\s|$)/).find((part) => part.includes(figure.text)) ?? clause;
  return /\b(?:would|could|might|may|should|if|unless|were|suppose|imagine|in\s+case)\b/i.test(sentence);
}

/** "fell 3.2 %", "down 6.18 %": a direction word right before an unsigned percentage gives it a sign. */
function withImpliedSign(text: string, figure: Figure): Figure {
  if (figure.signed || figure.unit !== 'percent' || typeof figure.value !== 'number') return figure;
  const before = text.slice(Math.max(0, figure.start - 40), figure.start);
  const verb =
    /\b(?:(?<down>down|fell|fallen|lost|declined|dropped|slid|slipped|shed|sank|decreased|shrank|contracted|lower\s+by|falling|dropping|declining)|(?<up>up|rose|risen|gained|added|climbed|rallied|advanced|increased|grew|grown|jumped|expanded|higher\s+by|rising|gaining|climbing))\b(?:\s+(?:by|some|about|roughly|nearly|almost|around|another|a\s+further|an?\s+))*\s*[+]?$/i.exec(
      before,
    );
  if (!verb || /\b(?:up|down)\s+to\s*$/i.test(before)) return figure;
  const sign = verb.groups?.down ? -1 : 1;
  return { ...figure, value: sign * Math.abs(figure.value), signed: true };
}

function readNumber(text: string, match: RegExpMatchArray): { figure: Figure; numberStart: number } | null {
  const [whole, sign = '', symbol, digits = '', fraction] = match;
  const start = match.index!;
  const numberStart = start + sign.length + (symbol?.length ?? 0);
  const before = text.slice(Math.max(0, start - 2), start);
  // Glued to a word (CB-7, H1, x86) or followed by one (3rd, 20d): a name, not a figure.
  if (/[A-Za-z]-?$/.test(text.slice(Math.max(0, start - 2), start)) && !symbol) return null;
  const after = text.slice(start + whole.length);
  const suffix = readSuffix(after);
  if (!suffix && /^[A-Za-z]/.test(after)) return null;
  const prefixCurrency = /(?:USD|EUR|GBP)\s$/.test(text.slice(Math.max(0, start - 4), start));
  const unit: ClaimUnit =
    symbol || prefixCurrency ? (suffix?.unit === 'percent' ? 'percent' : 'currency') : (suffix?.unit ?? 'number');
  const decimals = fraction?.length ?? 0;
  const scale = suffix?.scale ?? 1;
  const magnitude = Number(`${digits.replace(/,/g, '')}${fraction ? `.${fraction}` : ''}`) * scale;
  const negative = sign === '-' || sign === '−';
  // A sign only counts where it starts the figure: "2–6" and "130-135" are ranges.
  const signed = sign !== '' && (start === 0 || /[\s([:=]$/.test(before));
  const end = start + whole.length + (suffix?.length ?? 0);
  return {
    numberStart,
    figure: {
      text: text.slice(signed ? start : start + sign.length, end).trim(),
      start: signed ? start : start + sign.length,
      end,
      value: signed && negative ? -magnitude : magnitude,
      unit,
      tolerance: 0.5 * 10 ** -decimals * scale,
      decimals,
      scale,
      signed,
      quantity: null,
    },
  };
}

const isYear = (value: number) => Number.isInteger(value) && value >= 1900 && value <= 2100;

function extractDates(text: string, excluded: Covered): Figure[] {
  const found: Figure[] = [];
  const taken = new Covered(text.length);
  const add = (start: number, written: string, value: string) => {
    if (excluded.has(start) || taken.has(start)) return;
    if (!value.includes('NaN')) taken.add(start, start + written.length);
    found.push({
      text: written,
      start,
      end: start + written.length,
      value,
      unit: 'date',
      tolerance: 0,
      decimals: 0,
      scale: 1,
      signed: false,
      quantity: null,
    });
  };
  for (const match of text.matchAll(isoDate)) {
    const [written, year, month, day] = match;
    if (validDay(Number(month), Number(day))) add(match.index, written, `${year}-${month}-${day}`);
  }
  for (const match of text.matchAll(monthFirst)) add(match.index, match[0], dateValue(match[1]!, match[2]!, match[3]));
  for (const match of text.matchAll(dayFirst)) add(match.index, match[0], dateValue(match[2]!, match[1]!, match[3]));
  return found.filter((figure) => !String(figure.value).includes('NaN'));
}

const validDay = (month: number, day: number) => month >= 1 && month <= 12 && day >= 1 && day <= 31;

function dateValue(month: string, day: string, year: string | undefined): string {
  const index = months.indexOf(month.slice(0, 3).toLowerCase());
  if (index < 0 || !validDay(index + 1, Number(day))) return 'NaN';
  const mm = String(index + 1).padStart(2, '0');
  const dd = day.padStart(2, '0');
  return year ? `${year}-${mm}-${dd}` : `--${mm}-${dd}`;
}
