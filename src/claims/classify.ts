import type { DerivedValue } from './derived.js';
import type { Figure } from './extract.js';
import type { QuantityDefinition } from './quantities.js';
import type { SourceKind, SourceValue } from './sources.js';
import type { Claim, ClaimUnit } from './types.js';

/** What one text's figures are matched against. */
export interface MatchContext {
  sources: readonly SourceValue[];
  derived: readonly DerivedValue[];
  /** The decision's own text: its levels, size and reward/risk can be contradicted there. */
  decisionText: boolean;
  /** Claims of the texts this one was written from (the brief, the desks' reports). */
  upstream: readonly Claim[];
}

type Outcome = Pick<Claim, 'status' | 'source' | 'sourceValue' | 'sourceText' | 'via'>;

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

const isDerived = (source: SourceValue): source is DerivedValue => 'tier' in source;

function outcomeOf(figure: Figure, source: SourceValue): Outcome {
  return {
    status: isDerived(source) ? 'derived' : 'verified',
    source: source.path,
    sourceValue: source.value,
    sourceText: writtenLike(figure, source.value),
  };
}

/** The value written the way the figure was: its decimals, scale, sign and unit ("61.0", "2.50 USD"). */
export function writtenLike(figure: Figure, value: number | string): string {
  if (typeof value === 'string') return value;
  const number = Math.abs(value / figure.scale).toFixed(figure.decimals);
  const sign = value < 0 && (figure.signed || figure.unit !== 'currency') ? '-' : figure.signed && value > 0 ? '+' : '';
  return figure.text.replace(/[+\-−]?\d[\d,]*(?:\.\d+)?/, `${sign}${number}`);
}

/** Whether a figure in this unit can be the quantity at all. */
function fits(figure: Figure, quantity: QuantityDefinition): boolean {
  switch (quantity.kind) {
    case 'price':
      return figure.unit === 'currency' || figure.unit === 'number';
    case 'percent':
      return figure.unit === 'percent' || figure.unit === 'number';
    case 'amount':
      return (figure.unit === 'currency' || figure.unit === 'number') && figure.scale > 1;
    case 'ratio':
      return figure.unit === 'number' || figure.unit === 'ratio';
    case 'number':
      return figure.unit === 'number';
  }
}

/** Whether a different number is a contradiction: a percentage quantity needs a %, "Volatility 0.50" may be a score. */
function contradictable(figure: Figure, quantity: QuantityDefinition, context: MatchContext): boolean {
  if (quantity.decisionOnly && !context.decisionText) return false;
  return quantity.kind !== 'percent' || figure.unit === 'percent';
}

function candidatesFor(quantity: QuantityDefinition, context: MatchContext): SourceValue[] {
  const named = (source: SourceValue) =>
    quantity.sources.some((path) => source.path === path || (path.endsWith(' ') && source.path.startsWith(path)));
  return [...context.sources.filter(named), ...context.derived.filter(named)].filter(
    (source) => typeof source.value === 'number',
  );
}

/** The value a contradiction quotes: the one whose period the name states ("20-day volatility"), else the first. */
function truthFor(figure: Figure, candidates: readonly SourceValue[]): SourceValue {
  const name = figure.quantity?.text.toLowerCase() ?? '';
  const period = /\b20[- ](?:day|session)/.test(name) ? '20d' : /\b(?:1|one)[- ]year/.test(name) ? '1y' : null;
  return (period && candidates.find((candidate) => candidate.path.endsWith(period))) || candidates[0]!;
}

/** A figure the text names a quantity for: that quantity's value, or a contradiction. */
function classifyNamed(figure: Figure, quantity: QuantityDefinition, context: MatchContext): Outcome | null {
  if (!fits(figure, quantity)) return null;
  if (quantity.id === 'rsi' && figure.decimals === 0 && rsiThresholds.has(Math.abs(figure.value as number)))
    return null;
  const candidates = candidatesFor(quantity, context);
  if (candidates.length === 0) return null;
  const factors = quantity.kind === 'percent' && figure.unit === 'number' ? [1, 100] : [1];
  const hit = closest(figure, candidates, factors);
  if (hit) return outcomeOf(figure, hit);
  if (!contradictable(figure, quantity, context)) return null;
  const general = quantity.strength === 'soft' ? classifyUnnamed(figure, context) : null;
  if (general && general.status !== 'unsourced') return general;
  const truth = truthFor(figure, candidates);
  return {
    status: 'contradicted',
    source: truth.path,
    sourceValue: truth.value,
    sourceText: writtenLike(figure, truth.value as number),
  };
}

/** A figure with no quantity named (or none it fits): any source, then derived values, then upstream texts. */
function classifyUnnamed(figure: Figure, context: MatchContext): Outcome {
  const kinds = comparable[figure.unit];
  // A named value first; the market block's own text (ATR as a share of the close, 3.09 M) only where none matches.
  const usable = context.sources.filter((source) => kinds.includes(source.kind));
  const direct =
    closest(
      figure,
      usable.filter((source) => !source.path.startsWith('snapshot.text')),
    ) ??
    closest(
      figure,
      usable.filter((source) => source.path.startsWith('snapshot.text')),
    );
  if (direct) return outcomeOf(figure, direct);
  const specific = closest(
    figure,
    context.derived.filter((value) => value.tier === 'specific' && kinds.includes(value.kind)),
  );
  if (specific) return outcomeOf(figure, specific);
  const precise =
    typeof figure.value === 'number' && figure.tolerance <= combinatorialPrecision * Math.abs(figure.value);
  if (precise) {
    const combined = closest(
      figure,
      context.derived.filter((value) => value.tier === 'combinatorial' && kinds.includes(value.kind)),
    );
    if (combined) return outcomeOf(figure, combined);
  }
  const relayed = context.upstream.find((claim) => claim.unit === figure.unit && sameFigure(figure, claim));
  return relayed
    ? { status: 'unsourced', via: relayed.agent === 'director' ? relayed.field : `report.${relayed.agent}` }
    : { status: 'unsourced' };
}

function sameFigure(figure: Figure, claim: Claim): boolean {
  if (typeof figure.value === 'string' || typeof claim.value === 'string') return figure.value === claim.value;
  return Math.abs(figure.value - claim.value) <= figure.tolerance + slack(claim.value);
}

/** The quantity a figure is read as: the one named before it, when the figure's unit fits it. */
export function quantityOf(figure: Figure): QuantityDefinition | null {
  const quantity = figure.quantity?.quantity ?? null;
  return quantity && fits(figure, quantity) ? quantity : null;
}

/** One figure's status against the run's sources. */
export function classify(figure: Figure, context: MatchContext): Outcome {
  const named = figure.quantity ? classifyNamed(figure, figure.quantity.quantity, context) : null;
  return named ?? classifyUnnamed(figure, context);
}
