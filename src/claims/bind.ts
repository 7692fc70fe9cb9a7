/**
 * Which quantity a figure's surrounding words name. Three readings, tried in an order that
 * depends on the figure's unit:
 * - a distance: "3.2 % below the 52-week high", "2.29 USD under the close", "2 × ATR from entry";
 * - a name right after it: "18 % revenue growth", "$94.9 B in revenue", "138.95 (SMA50)";
 * - a name right before it, with only linking words between: "RSI(14) at 53.6", "the SMA200,
 *   which sits at 138.95".
 * A general name ("volatility", "return") is made specific by a period after the figure
 * ("29.40 % over 20 days"); a fundamentals figure carries the period its sentence names.
 */
import { lookBack, lookBacks } from './period-words.js';
import { namedPeriod, type NamedPeriod } from './periods.js';
import { quantityById, type PeriodWord, type QuantityDefinition, type QuantityMention } from './quantities.js';
import type { ClaimUnit } from './types.js';

export interface Distance {
  /** The level the figure is measured from. */
  reference: QuantityDefinition;
  /** The level measured, when the words name it; else the close (or the entry, for the decision's levels). */
  subject: QuantityDefinition | null;
  /** The sign of subject − reference the words state: −1 "below", +1 "above", 0 "from". */
  direction: -1 | 0 | 1;
  /** A price the sentence states for the subject ("a limit at 139.56, 2.29 USD under the close"). */
  subjectValue?: number;
}

/** A level moved by a multiple of ATR: "the close plus one ATR is 146.42". */
export interface AtrStep {
  /** The level moved. */
  base: QuantityDefinition;
  /** The signed multiple of ATR: +1 for "plus one ATR", −0.5 for "less half an ATR". */
  multiple: number;
}

export interface Binding extends QuantityMention {
  distance?: Distance;
  step?: AtrStep;
  /** The fundamentals period the sentence names (null: none named, the latest). */
  period?: NamedPeriod | null;
  /** The sentence speaks of a change against the prior quarter ("q/q", "sequentially"). */
  sequential?: boolean;
  /** The words give a look-back the data has no value for ("volatility over two years"). */
  unknownPeriod?: boolean;
}

/** What binding needs of a figure. */
export interface Bindable {
  start: number;
  end: number;
  unit: ClaimUnit;
  value: number | string;
  scale: number;
}

/** Whether a figure written in a unit can be a quantity of this kind at all. */
export function fits(figure: Pick<Bindable, 'unit' | 'scale' | 'value'>, quantity: QuantityDefinition): boolean {
  switch (quantity.kind) {
    case 'price':
      return figure.unit === 'currency' || figure.unit === 'number';
    case 'percent':
      return figure.unit === 'percent' || figure.unit === 'number';
    case 'amount':
      return (
        (figure.unit === 'currency' || figure.unit === 'number') &&
        (figure.scale > 1 || (typeof figure.value === 'number' && Math.abs(figure.value) >= 1000))
      );
    case 'ratio':
      return figure.unit === 'number' || figure.unit === 'ratio';
    case 'number':
      return figure.unit === 'number' || (figure.unit === 'ratio' && quantity.id !== 'rsi');
  }
}

/**
 * What may stand between a quantity's name and its figure: "RSI(14) at 53.6", "the close of
 * 141.85", "the SMA200, which sits at 138.95". No digit or comparison ("below", "above") — those
 * mean the figure is something else.
 */
const connector =
  /^(?:[\s:=~≈(),—–]|['’]s\b|\b(?:is|was|are|were|of|at|near|around|about|approximately|roughly|some|stands|stood|standing|sits|sat|sitting|reads|read|reading|readings?|currently|presently|now|today|the|its|their|a|an|level|value|figure|has|have|had|been|came|comes|coming|in|set|placed|put|on|to|just|only|still|remains|remained|holds|held|printed|prints|printing|which|that|registers|registered|measures|measured|shows|showed|hovers|hovering|lands|landed|rose|risen|fell|fallen|climbed|dropped|slipped|eased|ticked|moved|runs|running|trades|trading|comes|with|as|by|per|for|print|prints|sees|see|sees|we|our|calculated|computed|implies|implied|gives|giving|expanded|contracted|improved|widened|narrowed|reached|hit|touched|increased|decreased|declined|grew|lies|lay|this|last|latest|quarter|year|stays|stayed|ended|ending|closed|finished)\b)*$/i;

const periodInGap =
  /\b(?:Q[1-4]|[1-4]Q)(?:\s*FY)?\s*['’]?(?:\d{4}|\d{2})?\b|\b(?:FY|fiscal(?:\s+year)?)\s*['’]?(?:\d{4}|\d{2})\b|\b(?:19|20)\d{2}\b/gi;

/** Words before a name that make it a reference point, not the figure's quantity ("below entry ($132.71)"). */
const reference = /\b(?:below|above|under|over|from|than|beyond|through|past|to)\s+(?:the\s+|its\s+|a\s+|an\s+)?$/i;

/** Comparison words after a figure that make it a distance from the level named next, and their direction. */
const relation =
  /^\s*,?\s*(?:(?:or\s+so|roughly|about|approximately|some)\s+)?(?<dir>below|under(?:neath)?|beneath|above|over|beyond|from|off|away\s+from|short\s+of|shy\s+of|north\s+of|south\s+of|higher\s+than|lower\s+than|ahead\s+of|behind|vs\.?|versus|relative\s+to|against|through|past|to|(?:of\s+)?(?:potential\s+)?(?:upside|downside)(?:\s+(?:to|from|until))?|(?:a\s+)?premium\s+to|(?:a\s+)?discount\s+to)\s*(?:the\s+|its\s+|a\s+|an\s+|our\s+|this\s+|their\s+|my\s+|today's\s+|today’s\s+)?(?:(?:last|current|prior|stated|planned|proposed|recent|latest|daily|suggested|new|intended)\s+)?/i;

const bare = /^\s*,?\s*(?<dir>away|off|(?:of\s+)?(?:potential\s+)?(?:upside|downside))\b/i;

const directions: ReadonlyArray<[RegExp, -1 | 1]> = [
  [
    /^(?:below|under|underneath|beneath|short|shy|south|lower|behind|discount|a discount|upside|of upside|potential upside|of potential upside)\b/i,
    -1,
  ],
  [
    /^(?:above|over|beyond|north|higher|ahead|premium|a premium|downside|of downside|potential downside|of potential downside)\b/i,
    1,
  ],
];

function directionOf(words: string): -1 | 0 | 1 {
  // "11.46 % upside from the entry": the level named is below the subject, as "above the entry" says.
  const from = /\b(?:upside|downside)\s+from$/i.test(words.trim()) ? -1 : 1;
  for (const [pattern, direction] of directions) if (pattern.test(words)) return (direction * from) as -1 | 1;
  return 0;
}

const copula = /^\s*,?\s*(?:is|are|was|sits|stands|lies|remains)\s/i;

/** The start of the clause a position is in: after the last sentence end, semicolon or line break. */
function clauseStart(text: string, at: number): number {
  const window = text.slice(Math.max(0, at - 200), at);
  let best = -1;
  for (const match of window.matchAll(/[.!?](?=\s)|[;\n]/g)) best = match.index;
  return best < 0 ? Math.max(0, at - 200) : at - window.length + best + 1;
}

function sentenceEnd(text: string, at: number): number {
  const match = /[.!?](?=\s|$)|[;\n]/.exec(text.slice(at, at + 200));
  return match ? at + match.index : Math.min(text.length, at + 200);
}

/** Binary search: the index of the first mention that starts at or after `at`. */
function firstFrom(mentions: readonly QuantityMention[], at: number): number {
  let low = 0;
  let high = mentions.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (mentions[middle]!.start < at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The quantity named right before a figure at `start`, with only linking words between. */
export function quantityBefore(
  text: string,
  start: number,
  mentions: readonly QuantityMention[],
): QuantityMention | null {
  const index = firstFrom(mentions, start) - 1;
  const mention = mentions[index];
  if (!mention || mention.end > start) return null;
  // A period between a name and its figure is no other figure: "Revenue in Q1 FY26 reached $12.4 billion".
  const gap = text.slice(mention.end, start).replace(periodInGap, ' ').replace(lookBack, ' ');
  if (gap.length > 48 || !connector.test(gap)) return null;
  // A comma links a name to its figure only with words after it: "the SMA200, which sits at 138.95", not "on the position, 0.26 %".
  if (
    gap.includes(',') &&
    !/,\s*(?:which|that|currently|now|at|of|is|was|sits|stands|standing|sitting|reading|came|comes)\b/i.test(gap)
  )
    return null;
  // "One ATR above the entry is 144.14", "below entry ($132.71)": the name after a comparison is a reference
  // point, not what the figure is ("below support 132.02" still names support's value).
  // "above the 50-day at 128.04": "at" or "of" ties the figure to the name; "below entry ($95.25)" is the subject's price.
  // After a distance ("2×ATR(14) below the entry at $130.43") the price is still the subject's.
  const lead = text.slice(Math.max(0, mention.start - 40), mention.start);
  const afterDistance = /(?:\d|%|ATRs?|\))\s*(?:\S+\s+)?(?:below|above|under|over|from)\s+(?:the\s+|its\s+)?$/i.test(
    lead,
  );
  const tight = /^[\s:=]*$/.test(gap) || (!afterDistance && /^\s*(?:at|of)\s+\$?$/i.test(gap));
  return !tight && reference.test(text.slice(Math.max(0, mention.start - 16), mention.start)) ? null : mention;
}

/**
 * The quantity named right after a figure: tight ("18 % revenue growth", "138.95 (SMA50)") or
 * loose, after "in", "of", "on" or "for" ("$94.9 B in revenue"), which yields to a name before it.
 */
function quantityAfter(
  text: string,
  end: number,
  mentions: readonly QuantityMention[],
  loose: boolean,
): QuantityMention | null {
  const next = mentions[firstFrom(mentions, end)];
  if (!next) return null;
  const gap = text.slice(end, next.start);
  if (/^\s*\(\s*(?:the\s+)?$/i.test(gap)) return /^\s*\)/.test(text.slice(next.end, next.end + 3)) ? next : null;
  if (/^\s*(?:-\s*)?$/.test(gap)) return next;
  if (loose && /^\s*(?:in|of|for)\s+(?:the\s+|its\s+)?$/i.test(gap) && gap.length <= 14) return next;
  return null;
}

/** The level a distance is measured from, named right after the comparison words. */
function distanceAfter(
  text: string,
  figure: Bindable,
  mentions: readonly QuantityMention[],
  currency: boolean,
): { mention: QuantityMention | null; direction: -1 | 0 | 1; end: number } | null {
  const after = text.slice(figure.end, figure.end + 120);
  if (currency && copula.test(after)) return null;
  const named = relation.exec(after);
  if (named) {
    // The level's name may take in the adjective the words consumed ("the last close", "the current price").
    const at = figure.end + named[0].length;
    const wordsEnd = figure.end + named[0].indexOf(named.groups!.dir!) + named.groups!.dir!.length;
    const next = mentions[firstFrom(mentions, wordsEnd)];
    if (next && next.start <= at && next.end > at && next.quantity.level)
      return { mention: next, direction: directionOf(named.groups!.dir!), end: next.end };
  }
  const alone = bare.exec(after);
  if (alone) return { mention: null, direction: directionOf(alone.groups!.dir!), end: figure.end + alone[0].length };
  return null;
}

/** The nearest level named before a figure in its clause (not the reference itself): what the distance measures. */
function subjectBefore(
  text: string,
  figure: Bindable,
  mentions: readonly QuantityMention[],
  exclude: QuantityMention | null,
): QuantityMention | null {
  const from = clauseStart(text, figure.start);
  for (let index = firstFrom(mentions, figure.start) - 1; index >= 0; index -= 1) {
    const mention = mentions[index]!;
    if (mention.start < from) return null;
    // A level named after a comparison ("2 % above the 50-day and 11 % above…") is an earlier reference, not the subject.
    const compared = reference.test(text.slice(Math.max(0, mention.start - 16), mention.start));
    if (mention !== exclude && mention.quantity.level && !compared) return mention;
  }
  return null;
}

/** Relation words a price can take as a distance: "2.29 USD under the close", not "141.85 to the target". */
const priceRelation =
  /^(?:below|under|underneath|beneath|above|over|beyond|from|away\s+from|short\s+of|shy\s+of|higher\s+than|lower\s+than|away|off)\b/i;

function distanceBinding(
  text: string,
  figure: Bindable,
  mentions: readonly QuantityMention[],
  previous: readonly Bindable[],
): Binding | null {
  const currency = figure.unit === 'currency' || figure.unit === 'number';
  if (currency && /\b(?:at|to|of|near|around)\s*\$?$/i.test(text.slice(Math.max(0, figure.start - 8), figure.start)))
    return null;
  const found = distanceAfter(text, figure, mentions, currency);
  if (!found) return null;
  const words = text
    .slice(figure.end, found.end)
    .replace(/^\s*,?\s*(?:(?:or\s+so|roughly|about|approximately|some)\s+)?/i, '');
  if (currency && !priceRelation.test(words)) return null;
  const before = subjectBefore(text, figure, mentions, found.mention);
  const upside = found.mention === null && /upside|downside/i.test(words);
  // "162.00 target implies 14.2 % upside": the level before is the reference, the close the subject.
  const subject = upside ? null : before;
  const referenceQuantity =
    found.mention?.quantity ??
    (upside
      ? (before?.quantity ?? quantityById.get('target')!)
      : quantityById.get(before && ['stop', 'target'].includes(before.quantity.id) ? 'entry' : 'price')!);
  if (subject?.quantity.id === referenceQuantity.id) return null;
  const subjectValue = upside ? undefined : priceBefore(text, figure, previous, subject);
  return {
    quantity: referenceQuantity,
    text: text.slice(figure.end, found.end).trim(),
    start: figure.end,
    end: found.end,
    distance: {
      reference: referenceQuantity,
      subject: subject?.quantity ?? null,
      direction: found.direction,
      ...(subjectValue !== undefined ? { subjectValue } : {}),
    },
  };
}

/** A price stated in the same clause after the subject's name: the subject's value as the text has it. */
function priceBefore(
  text: string,
  figure: Bindable,
  previous: readonly Bindable[],
  subject: QuantityMention | null,
): number | undefined {
  if (!subject) return undefined;
  const from = subject.end;
  for (let index = previous.length - 1; index >= 0; index -= 1) {
    const candidate = previous[index]!;
    if (candidate.start < from) break;
    if ((candidate.unit === 'currency' || candidate.unit === 'number') && typeof candidate.value === 'number')
      return candidate.value;
  }
  return undefined;
}

/** Period words after a figure: "over 20 days", "(1 year)", "over the past month". */
const periodAfter =
  /^\s*(?:\(\s*|,\s*)?(?:over|in|across|for|on|during|through)?\s*(?:the\s+)?(?:past|last|prior|previous|trailing|latest)?\s*(?<period>(?:1|one)[- ]?day\b|day\b|session\b|today\b|(?:1|one)[- ]?week\b|week\b|(?:5|five)[- ](?:trading[- ])?(?:days?|sessions?)\b|(?:1|one)[- ]?month\b|month\b|(?:20|21|twenty|30)[- ](?:trading[- ])?(?:days?|sessions?)\b|(?:3|three)[- ]months?\b|quarter\b|(?:63|90)[- ](?:trading[- ])?days\b|(?:6|six)[- ]months?\b|half[- ]year\b|(?:1|one)[- ]?year\b|year\b|(?:12|twelve)[- ]months?\b|52[- ]weeks?\b|(?:252|250)[- ](?:trading[- ])?(?:days|sessions)\b)/i;

function periodWordOf(written: string): PeriodWord {
  const words = written.toLowerCase();
  if (/half|6|six/.test(words)) return 'half';
  if (/3|three|quarter|63|90/.test(words)) return 'quarter';
  if (/year|12|twelve|52|25[02]/.test(words)) return 'year';
  if (/month|20|21|twenty|30/.test(words)) return 'month';
  if (/week|5|five/.test(words)) return 'week';
  return 'day';
}

/**
 * The look-back the words give a general quantity: right after the figure ("29.40 % over 20
 * days"), else between its name and the figure ("volatility over the last year is"), else before
 * the name in the clause ("Over the past six months the stock gained"). Undefined: none given.
 */
function lookBackOf(text: string, figure: Bindable, mention: QuantityMention): PeriodWord | null | undefined {
  const following = lookBacks(text.slice(figure.end, Math.min(sentenceEnd(text, figure.end), figure.end + 60)));
  if (following[0] && /^\s*,?\s*$/.test(text.slice(figure.end, figure.end + following[0].start)))
    return following[0].period;
  const after = periodAfter.exec(text.slice(figure.end, figure.end + 60));
  if (after) return periodWordOf(after.groups!.period!);
  const from = clauseStart(text, Math.min(mention.start, figure.start));
  const to = mention.end <= figure.start ? figure.start : mention.start;
  const before = lookBacks(text.slice(from, to), from).filter((found) => found.end <= to);
  return before.length > 0 ? before[before.length - 1]!.period : undefined;
}

/**
 * A general quantity made specific by the look-back its words give. A look-back the data has no
 * value for ("over two years") binds the figure to that: `unknownPeriod`, never another period's value.
 */
function specificFor(text: string, figure: Bindable, mention: QuantityMention): Binding {
  const periods = mention.quantity.periods;
  if (!periods) return mention;
  const period = lookBackOf(text, figure, mention);
  if (period === undefined) return mention;
  const specific = period ? periods[period] : undefined;
  const quantity = specific ? quantityById.get(specific) : undefined;
  return quantity ? { ...mention, quantity } : { ...mention, unknownPeriod: true };
}

/** The fundamentals period of a figure's sentence, for a quantity of a period. */
function withPeriod(text: string, figure: Bindable, mention: Binding): Binding {
  if (!mention.quantity.periodic) return mention;
  const from = clauseStart(text, figure.start);
  const to = sentenceEnd(text, figure.end);
  const sentence = text.slice(from, to);
  return {
    ...mention,
    period: namedPeriod(sentence, figure.start - from),
    sequential: /\b(?:q\/q|qoq|q-o-q|sequential(?:ly)?|quarter[- ](?:over|on)[- ]quarter)\b/i.test(sentence),
  };
}

const multiples: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, half: 0.5 };

/** "plus one ATR is", "less 1.5 × ATR gives", "+ 2 ATR =": a step of ATR ending right before a figure. */
const atrStep =
  /\s(?<sign>plus|minus|less|\+|−|-)\s*(?:(?<k>\d+(?:\.\d+)?|one|two|three|four|an?)\s*(?:×|x|times)?\s*|(?:(?<half>half)\s+an?\s+))(?:ATRs?|average\s+true\s+ranges?)(?:\s*\(14\))?\s*(?:,\s*)?(?:(?:is|gives|give|=|equals|makes|comes\s+to|puts\s+(?:it|us)\s+at|lands\s+at|sits\s+at|at|of|to|:|→|->|would\s+be|yields?)\s*)*(?:about\s+|roughly\s+|around\s+|near\s+|~\s*)?(?:US)?\$?$/i;

/** How much of a step's words name it ("plus one ATR"), without the linking words after. */
function stepWords(words: string): number {
  const name = /ATRs?(?:\s*\(14\))?|average\s+true\s+ranges?/i.exec(words);
  return name ? name.index + name[0].length : words.length;
}

/** A level ± k ATR: the level named right before the step, with at most its own price between. */
function stepBinding(text: string, figure: Bindable, mentions: readonly QuantityMention[]): Binding | null {
  if (figure.unit !== 'currency' && figure.unit !== 'number') return null;
  const from = clauseStart(text, figure.start);
  const words = text.slice(from, figure.start);
  const step = atrStep.exec(words);
  if (!step) return null;
  const stepStart = from + step.index;
  const index = firstFrom(mentions, stepStart) - 1;
  const level = mentions[index];
  if (!level || level.start < from || !level.quantity.level) return null;
  if (!/^(?:\s|\(|\)|\$|[\d.,]|\b(?:at|of)\b)*$/i.test(text.slice(level.end, stepStart))) return null;
  const { sign, k, half } = step.groups!;
  const size = half ? 0.5 : (multiples[k!.toLowerCase()] ?? Number(k));
  const multiple = /plus|\+/i.test(sign!) ? size : -size;
  return {
    quantity: level.quantity,
    text: text.slice(level.start, stepStart + stepWords(step[0])).trim(),
    start: level.start,
    end: figure.start,
    step: { base: level.quantity, multiple },
  };
}

/**
 * The quantity a figure's words name. `previous` are the figures before it in the same text
 * (a distance's subject may be a price the clause stated).
 */
export function bindFigure(
  text: string,
  figure: Bindable,
  mentions: readonly QuantityMention[],
  previous: readonly Bindable[],
): Binding | null {
  const fitting = (mention: QuantityMention | null) => (mention && fits(figure, mention.quantity) ? mention : null);
  const named = (mention: QuantityMention | null): Binding | null =>
    mention ? withPeriod(text, figure, specificFor(text, figure, mention)) : null;
  const before = () => named(fitting(quantityBefore(text, figure.start, mentions)));
  const after = () => named(fitting(quantityAfter(text, figure.end, mentions, false)));
  const afterLoose = () => named(fitting(quantityAfter(text, figure.end, mentions, true)));
  const distance = () => distanceBinding(text, figure, mentions, previous);
  // A distance reads first ("the close sits 4.91 USD below resistance"); a price after "at", "of" or
  // before "is" is no distance (distanceBinding declines it), so "the close of 141.85 is above" stays the close.
  const step = () => stepBinding(text, figure, mentions);
  const order = [step, distance, after, before, afterLoose];
  for (const read of order) {
    const found = read();
    if (found) return found;
  }
  return null;
}
