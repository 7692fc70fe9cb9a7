import type { Binding, Distance } from './bind.js';
import { fits } from './bind.js';
import type { DerivedValue } from './derived.js';
import type { Figure } from './extract.js';
import { periodMatches } from './periods.js';
import { quantities, quantityById, type QuantityDefinition } from './quantities.js';
import type { SourceKind, SourceValue } from './sources.js';
import type { Claim, ClaimUnit } from './types.js';
import type { ValueIndex } from './value-index.js';

/** What one text's figures are matched against. */
export interface MatchContext {
  sources: readonly SourceValue[];
  /** The few meaningful derived values (reward/risk, risk per trade, margins…), as a list and indexed by magnitude. */
  derived: readonly DerivedValue[];
  specific: ValueIndex<DerivedValue>;
  /** The many combinatorial ones (every anchor ± k ATR, every distance between two prices). */
  combinatorial: ValueIndex<DerivedValue>;
  /** The decision's own text: its levels, size and reward/risk can be contradicted there. */
  decisionText: boolean;
  /** Claims of the texts this one was written from (the brief, the desks' reports). */
  upstream: readonly Claim[];
  /** Each quantity's values, found once per context. */
  named: Map<string, SourceValue[]>;
}

export type Outcome = Pick<
  Claim,
  'status' | 'source' | 'sourceValue' | 'sourceText' | 'via' | 'crossed' | 'crossedSource'
>;

/** Which source kinds a figure written in a unit may equal. */
const comparable: Record<ClaimUnit, readonly SourceKind[]> = {
  currency: ['price', 'amount', 'number'],
  percent: ['percent'],
  number: ['price', 'number', 'amount', 'ratio'],
  atr: ['atr'],
  ratio: ['ratio', 'number'],
  date: ['date'],
};

/** Floating-point slack on top of the rounding: 53.6 − 53.55 is 0.0500000000000043. */
const slack = (value: number) => 1e-9 * Math.max(1, Math.abs(value));
/**
 * A combinatorial derived value may only match a figure printed to 0.1 % of itself: 139.57 and
 * 6.44 % may, 125 and 6.4 % may not (some anchor ± k ATR lies within half a unit of almost any round price).
 */
const combinatorialPrecision = 0.001;
/** Whole-number RSI levels writers name as thresholds ("RSI near 70 would be overbought"), not readings. */
const rsiThresholds = new Set([20, 30, 50, 70, 80]);

/** How far a figure is from a number, or null when the rounding of the figure cannot reach it. */
function distance(figure: Figure, value: number, factor = 1): number | null {
  const written = (figure.value as number) * factor;
  const tolerance = figure.tolerance * factor;
  const gap = figure.signed ? Math.abs(written - value) : Math.abs(Math.abs(written) - Math.abs(value));
  return gap <= tolerance + slack(value) ? gap : null;
}

function readingsOf(source: SourceValue): number[] {
  if (typeof source.value !== 'number') return [];
  return source.shown !== undefined ? [source.value, source.shown] : [source.value];
}

function dateMatches(figure: Figure, source: SourceValue): boolean {
  if (typeof source.value !== 'string' || typeof figure.value !== 'string') return false;
  return figure.value.startsWith('--') ? source.value.endsWith(figure.value.slice(1)) : source.value === figure.value;
}

/** The closest source a figure rounds to; `factors` also tries the figure as a fraction (0.30 for 30 %). */
function closest<T extends SourceValue>(
  figure: Figure,
  candidates: readonly T[],
  factors: readonly number[] = [1],
): T | null {
  let best: { source: T; gap: number } | null = null;
  for (const source of candidates) {
    if (figure.unit === 'date') {
      if (dateMatches(figure, source)) return source;
      continue;
    }
    for (const reading of readingsOf(source)) {
      for (const factor of factors) {
        const gap = distance(figure, reading, factor);
        if (gap !== null && (best === null || gap < best.gap)) best = { source, gap };
      }
    }
  }
  return best?.source ?? null;
}

/** The closest value of an index a figure rounds to, looked up by magnitude. */
function closestIn<T extends SourceValue>(
  figure: Figure,
  index: ValueIndex<T>,
  kinds: readonly SourceKind[],
): T | null {
  if (typeof figure.value !== 'number') return null;
  const magnitude = Math.abs(figure.value);
  const reach = figure.tolerance + slack(magnitude) * 2;
  const nearby = index.within(magnitude - reach, magnitude + reach).filter((value) => kinds.includes(value.kind));
  return closest(figure, nearby);
}

/** A value of a tool's output, not of the snapshot, its fundamentals or the decision. */
const fromTool = (source: SourceValue) => !('tier' in source) && /^[^\s(.[]+#\d+/.test(source.path);

function toolValues(context: MatchContext): SourceValue[] {
  const cached = context.named.get('tools');
  if (cached) return cached;
  const found = context.sources.filter(fromTool);
  context.named.set('tools', found);
  return found;
}

const isDerived = (source: SourceValue): source is DerivedValue => 'tier' in source;

function outcomeOf(figure: Figure, source: SourceValue): Outcome {
  return {
    status: isDerived(source) ? 'derived' : 'verified',
    source: source.path,
    sourceValue: source.value,
    sourceText: writtenLike(figure, source.value, source.decimals),
  };
}

/**
 * A value written the way the figure was — its scale, sign and unit — at the data's own
 * precision when known ("53.6" for an RSI written "54"), else at the figure's, at least 2
 * decimals for a derived number ("2.50 USD").
 */
export function writtenLike(figure: Figure, value: number | string, decimals?: number): string {
  if (typeof value === 'string') return value;
  const places = decimals ?? (figure.scale > 1 ? Math.max(figure.decimals, 2) : Math.max(figure.decimals, 2));
  const number = Math.abs(value / figure.scale).toFixed(Math.min(places, 6));
  const written = /^[+\-−]/.test(figure.text);
  const sign = value < 0 && (written || figure.unit !== 'currency') ? '-' : written && value > 0 ? '+' : '';
  return figure.text.replace(/[+\-−]?\d[\d,]*(?:\.\d+)?/, `${sign}${number}`);
}

/** Whether a different number is a contradiction: a percentage quantity needs a %, "Volatility 0.50" may be a score. */
function contradictable(figure: Figure, quantity: QuantityDefinition, context: MatchContext): boolean {
  if (quantity.decisionOnly && !context.decisionText) return false;
  return quantity.kind !== 'percent' || figure.unit === 'percent';
}

/** The values a quantity is, from the sources and the specific derived values; periodic ones filtered later. */
function valuesOf(quantity: QuantityDefinition, context: MatchContext): SourceValue[] {
  const cached = context.named.get(quantity.id);
  if (cached) return cached;
  const all = [...context.sources, ...context.derived];
  const found = quantity.sources.flatMap((path) =>
    all.filter(
      (source) =>
        typeof source.value === 'number' &&
        (source.path === path ||
          source.key === path ||
          source.key === `${path}.qoq` ||
          (path.endsWith(' ') && source.path.startsWith(path))),
    ),
  );
  context.named.set(quantity.id, found);
  return found;
}

/** The values of the bound quantity: for a fundamentals figure, those of the period the words name. */
function candidatesFor(binding: Binding, quantity: QuantityDefinition, context: MatchContext): SourceValue[] {
  const values = valuesOf(quantity, context);
  if (!quantity.periodic) return values;
  const sequential = binding.sequential === true;
  const growth = quantity.id.endsWith('Growth');
  return values.filter((value) => {
    if (growth && (value.key?.endsWith('.qoq') ?? false) !== sequential) return false;
    return value.period ? periodMatches(binding.period ?? null, value.period) : binding.period == null;
  });
}

/** Another quantity of the same kind that the figure equals: a crossed value ("SMA200 138.95" is the SMA50). */
function crossedWith(
  figure: Figure,
  binding: Binding,
  quantity: QuantityDefinition,
  context: MatchContext,
): { label: string; source: SourceValue } | null {
  if (quantity.periodic) {
    const others = valuesOf(quantity, context).filter(
      (value) => value.period && !candidatesFor(binding, quantity, context).includes(value),
    );
    const hit = closest(figure, others, factorsFor(figure, quantity));
    if (hit) return { label: `${quantity.label} (${hit.period!.label})`, source: hit };
  }
  return otherQuantity(figure, quantity, context);
}

/** A quantity of the same kind, other than `quantity`, whose value the figure equals. */
function otherQuantity(
  figure: Figure,
  quantity: QuantityDefinition,
  context: MatchContext,
): { label: string; source: SourceValue } | null {
  for (const other of quantities) {
    if (other.id === quantity.id || other.kind !== quantity.kind || other.id === 'return' || other.periods) continue;
    if (!fits(figure, other) || (other.periodic && !quantity.periodic)) continue;
    const hit = closest(figure, valuesOf(other, context), factorsFor(figure, other));
    if (hit) return { label: other.label, source: hit };
  }
  return null;
}

const factorsFor = (figure: Figure, quantity: QuantityDefinition) =>
  quantity.kind === 'percent' && figure.unit === 'number' ? [1, 100] : [1];

/** A contradiction quoting the true value, and the quantity the figure equals instead when there is one. */
function contradiction(figure: Figure, truth: SourceValue, crossed: ReturnType<typeof crossedWith>): Outcome {
  return {
    status: 'contradicted',
    source: truth.path,
    sourceValue: truth.value,
    sourceText: writtenLike(figure, truth.value as number, truth.decimals),
    ...(crossed ? { crossed: crossed.label, crossedSource: crossed.source.path } : {}),
  };
}

/** A figure the text names a quantity for: that quantity's value, or a contradiction. */
function classifyNamed(figure: Figure, binding: Binding, context: MatchContext): Outcome | null {
  const quantity = binding.quantity;
  if (!fits(figure, quantity)) return null;
  // "Volatility over two years": a look-back the data has no value for is checked against no other one.
  if (binding.unknownPeriod) return { status: 'unsourced' };
  if (quantity.id === 'rsi' && figure.decimals === 0 && rsiThresholds.has(Math.abs(figure.value as number)))
    return null;
  const candidates = candidatesFor(binding, quantity, context);
  if (candidates.length === 0) return null;
  const hit = closest(figure, candidates, factorsFor(figure, quantity));
  if (hit) return outcomeOf(figure, hit);
  if (!contradictable(figure, quantity, context)) return null;
  const general = quantity.strength === 'soft' ? classifyUnnamed(figure, context) : null;
  if (general && general.status !== 'unsourced') return general;
  // What the desk's own tools returned is unlabelled text ("revenue up 19 %" in a search result): it may state the figure.
  const told = closest(figure, toolValues(context), factorsFor(figure, quantity));
  if (told) return outcomeOf(figure, told);
  return contradiction(figure, candidates[0]!, crossedWith(figure, binding, quantity, context));
}

/** The readings of a level quantity: each value it has, exact and as shown. */
function levelReadings(quantity: QuantityDefinition, context: MatchContext): Array<{ path: string; value: number }> {
  const values = valuesOf(quantity, context).filter((value) => value.kind === 'price');
  const first = values[0];
  return first ? readingsOf(first).map((value) => ({ path: first.path, value })) : [];
}

interface Expected {
  value: number;
  formula: string;
  /** Measured from a level the decision states (entry, stop, target) or the data. */
  exact: boolean;
}

/** The distances a figure in its unit can be, from each subject reading to each reference reading. */
function expectedDistances(
  figure: Figure,
  subjects: ReadonlyArray<{ path: string; value: number }>,
  references: ReadonlyArray<{ path: string; value: number }>,
  context: MatchContext,
): Expected[] {
  const atr = levelReadings(quantityById.get('atr')!, context);
  const found: Expected[] = [];
  for (const subject of subjects) {
    for (const reference of references) {
      const difference = subject.value - reference.value;
      const exact = subject.path !== 'text';
      const pair = `${subject.path} − ${reference.path}`;
      if (figure.unit === 'percent') {
        if (reference.value > 0)
          found.push({ value: (difference / reference.value) * 100, formula: `(${pair}) ÷ ${reference.path}`, exact });
        if (subject.value > 0)
          found.push({ value: (difference / subject.value) * 100, formula: `(${pair}) ÷ ${subject.path}`, exact });
      } else if (figure.unit === 'atr') {
        for (const range of atr)
          if (range.value > 0) found.push({ value: difference / range.value, formula: `(${pair}) ÷ ATR`, exact });
      } else {
        found.push({ value: difference, formula: pair, exact });
      }
    }
  }
  return found;
}

/** Whether a figure is a distance, in the direction the words state (a written sign must match too). */
function distanceMatches(figure: Figure, expected: number, direction: -1 | 0 | 1): boolean {
  if (direction !== 0 && Math.sign(expected) !== direction && Math.abs(expected) > figure.tolerance) return false;
  const written = figure.value as number;
  const gap =
    figure.signed && direction === 0 ? Math.abs(written - expected) : Math.abs(Math.abs(written) - Math.abs(expected));
  return gap <= figure.tolerance + slack(expected);
}

/** The subjects of a distance: the level named (else the close, or the close and the entry for the decision's levels). */
function subjectsOf(distanceWords: Distance, context: MatchContext): Array<{ path: string; value: number }> {
  const named = distanceWords.subject
    ? levelReadings(distanceWords.subject, context)
    : ['stop', 'target'].includes(distanceWords.reference.id)
      ? [...levelReadings(quantityById.get('price')!, context), ...levelReadings(quantityById.get('entry')!, context)]
      : levelReadings(quantityById.get('price')!, context);
  const stated = distanceWords.subjectValue !== undefined ? [{ path: 'text', value: distanceWords.subjectValue }] : [];
  return [...named, ...stated];
}

/** The snapshot's own distance field for the close against an average or the year's extremes, when it has one. */
const snapshotDistance: Record<string, string> = {
  sma20: 'snapshot.indicators.distanceFromSma20',
  sma50: 'snapshot.indicators.distanceFromSma50',
  sma200: 'snapshot.indicators.distanceFromSma200',
  high52w: 'snapshot.indicators.distanceFromHigh52w',
  low52w: 'snapshot.indicators.distanceFromLow52w',
};

/** A distance between two levels: derived when the levels give it, contradicted (or crossed) when they give another. */
function classifyDistance(figure: Figure, binding: Binding, context: MatchContext): Outcome | null {
  const words = binding.distance!;
  if (typeof figure.value !== 'number') return null;
  const subjects = subjectsOf(words, context);
  const references = levelReadings(words.reference, context);
  if (subjects.length === 0 || references.length === 0) return null;
  const own = snapshotDistance[words.reference.id];
  if (own && figure.unit === 'percent' && (words.subject === null || words.subject.id === 'price')) {
    const field = context.sources.find((source) => source.path === own);
    if (field && typeof field.value === 'number' && distanceMatches(figure, field.value, words.direction))
      return outcomeOf(figure, field);
    if (
      field &&
      typeof field.value === 'number' &&
      field.shown !== undefined &&
      distanceMatches(figure, field.shown, words.direction)
    )
      return outcomeOf(figure, field);
  }
  const expected = expectedDistances(figure, subjects, references, context);
  const hit = expected.find((candidate) => distanceMatches(figure, candidate.value, words.direction));
  if (hit) return derivedOutcome(figure, hit);
  const sides = [words.reference, ...(words.subject ? [words.subject] : [])];
  const decisionSide = sides.some((side) => side.decisionOnly);
  // A price the data has as it is ("SMA50 138.95 above the SMA200") is a level the words compare, not a distance.
  if (figure.unit !== 'percent' && figure.unit !== 'atr') {
    const level = classifyUnnamed(figure, context);
    if (level.status === 'verified') return level;
  }
  const stated = subjects.some((subject) => subject.path === 'text') && !words.subject;
  if ((decisionSide && !context.decisionText) || stated || figure.unit === 'ratio') return null;
  if (figure.unit === 'number' && figure.decimals === 0) return null;
  if (sides.some((side) => side.strength === 'soft')) {
    const general = classifyUnnamed(figure, context);
    if (general.status !== 'unsourced') return general;
  }
  const truth = expected.find((candidate) => candidate.exact) ?? expected[0]!;
  const crossed =
    crossedDistance(figure, words, subjects, context) ??
    (figure.unit === 'percent' ? namedInstead(figure, context) : null);
  return {
    status: 'contradicted',
    source: truth.formula,
    sourceValue: truth.value,
    sourceText: writtenLike(figure, words.direction === 0 ? truth.value : Math.abs(truth.value), 2),
    ...(crossed ? { crossed: crossed.label, crossedSource: crossed.formula } : {}),
  };
}

/** A percentage quoted as a distance that is another named quantity ("27.11 % below the high" is the drawdown). */
function namedInstead(figure: Figure, context: MatchContext): { label: string; formula: string } | null {
  const other = otherQuantity(figure, { ...quantityById.get('drawdown')!, id: '' }, context);
  return other ? { label: other.label, formula: other.source.path } : null;
}

function derivedOutcome(figure: Figure, hit: Expected): Outcome {
  return {
    status: 'derived',
    source: hit.formula,
    sourceValue: hit.value,
    sourceText: writtenLike(figure, figure.signed ? hit.value : Math.abs(hit.value), 2),
  };
}

/** The other level the distance is to (the SMA50's gap quoted as the SMA200's), or the other side of it. */
function crossedDistance(
  figure: Figure,
  words: Distance,
  subjects: ReadonlyArray<{ path: string; value: number }>,
  context: MatchContext,
): { label: string; formula: string } | null {
  const references = levelReadings(words.reference, context);
  const flipped = expectedDistances(figure, subjects, references, context).find((candidate) =>
    distanceMatches(figure, candidate.value, 0),
  );
  if (flipped && words.direction !== 0)
    return { label: `${words.reference.label}, on the other side`, formula: flipped.formula };
  for (const other of quantities) {
    if (!other.level || other.id === words.reference.id || other.id === words.subject?.id) continue;
    if (other.decisionOnly && !context.decisionText) continue;
    const hit = expectedDistances(figure, subjects, levelReadings(other, context), context).find((candidate) =>
      distanceMatches(figure, candidate.value, 0),
    );
    if (hit) return { label: `the distance from the ${other.label}`, formula: hit.formula };
  }
  return null;
}

/** The sources a unit can equal, named ones and the market block's text apart; found once per context and unit. */
function usableFor(unit: ClaimUnit, context: MatchContext): [SourceValue[], SourceValue[]] {
  const key = `unit:${unit}`;
  const cached = context.named.get(key);
  const block = context.named.get(`${key}:block`);
  if (cached && block) return [cached, block];
  const usable = context.sources.filter((source) => comparable[unit].includes(source.kind));
  const found: [SourceValue[], SourceValue[]] = [
    usable.filter((source) => !source.path.startsWith('snapshot.text')),
    usable.filter((source) => source.path.startsWith('snapshot.text')),
  ];
  context.named.set(key, found[0]);
  context.named.set(`${key}:block`, found[1]);
  return found;
}

/** A figure with no quantity named (or none it fits): any source, then derived values, then upstream texts. */
function classifyUnnamed(figure: Figure, context: MatchContext): Outcome {
  const kinds = comparable[figure.unit];
  // A named value first; the market block's own text (ATR as a share of the close, 3.09 M) only where none matches.
  const [named, block] = usableFor(figure.unit, context);
  const direct = closest(figure, named) ?? closest(figure, block);
  if (direct) return outcomeOf(figure, direct);
  if (figure.unit === 'date') return relayed(figure, context);
  const specific = closestIn(figure, context.specific, kinds);
  if (specific) return outcomeOf(figure, specific);
  const precise =
    typeof figure.value === 'number' && figure.tolerance <= combinatorialPrecision * Math.abs(figure.value);
  if (precise) {
    const combined = closestIn(figure, context.combinatorial, kinds);
    if (combined) return outcomeOf(figure, combined);
  }
  return relayed(figure, context);
}

/** Unsourced, naming an earlier text of the run that states the figure too. */
function relayed(figure: Figure, context: MatchContext): Outcome {
  const earlier = context.upstream.find((claim) => claim.unit === figure.unit && sameFigure(figure, claim));
  return earlier
    ? { status: 'unsourced', via: earlier.agent === 'director' ? earlier.field : `report.${earlier.agent}` }
    : { status: 'unsourced' };
}

function sameFigure(figure: Figure, claim: Claim): boolean {
  if (typeof figure.value === 'string' || typeof claim.value === 'string') return figure.value === claim.value;
  return Math.abs(figure.value - claim.value) <= figure.tolerance + slack(claim.value);
}

/** The quantity a figure is read as: the one its words name, when the figure's unit fits it. */
export function quantityOf(figure: Figure): QuantityDefinition | null {
  const binding = figure.quantity;
  if (!binding) return null;
  return binding.distance || binding.step || fits(figure, binding.quantity) ? binding.quantity : null;
}

/**
 * A level moved by k ATR ("the close plus one ATR is 146.42"): derived when the level and ATR
 * give it, contradicted with the derived value when they give another.
 */
function classifyStep(figure: Figure, binding: Binding, context: MatchContext): Outcome | null {
  const { base, multiple } = binding.step!;
  if (typeof figure.value !== 'number') return null;
  const levels = levelReadings(base, context);
  const ranges = levelReadings(quantityById.get('atr')!, context);
  const sign = multiple < 0 ? '−' : '+';
  const expected: Expected[] = levels.flatMap((level) =>
    ranges.map((range) => ({
      value: level.value + multiple * range.value,
      formula: `${level.path} ${sign} ${Math.abs(multiple)} × ${range.path}`,
      exact: true,
    })),
  );
  if (expected.length === 0) return null;
  const written = figure.value;
  const hit = expected.find(
    (candidate) => Math.abs(written - candidate.value) <= figure.tolerance + slack(candidate.value),
  );
  if (hit) return derivedOutcome(figure, hit);
  if (base.decisionOnly && !context.decisionText) return null;
  // A soft level (support, resistance) may be another one the writer saw: only a named source clears it.
  if (base.strength === 'soft') {
    const general = classifyUnnamed(figure, context);
    if (general.status === 'verified') return general;
  }
  const truth = expected[0]!;
  return {
    status: 'contradicted',
    source: truth.formula,
    sourceValue: truth.value,
    sourceText: writtenLike(figure, truth.value, 2),
  };
}

/** One figure's status against the run's sources. */
export function classify(figure: Figure, context: MatchContext): Outcome {
  const binding = figure.quantity;
  const named = binding
    ? binding.step
      ? classifyStep(figure, binding, context)
      : binding.distance
        ? classifyDistance(figure, binding, context)
        : classifyNamed(figure, binding, context)
    : null;
  return named ?? classifyUnnamed(figure, context);
}
