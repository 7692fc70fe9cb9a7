import type { DecisionLevels, SourceValue } from './sources.js';

/**
 * Figures the run can reproduce from its own values. `specific` ones are few and meaningful
 * (reward/risk, risk per trade, a stop's distance in ATR, ATR in percent of the close) and
 * match like any source; `combinatorial` ones (every anchor ± k ATR, every distance between two
 * levels) are many, so only a figure precise to 0.5 % of itself may match one — a round number
 * would match some combination by chance.
 */
export interface DerivedValue extends SourceValue {
  tier: 'specific' | 'combinatorial';
}

/** The multiples of ATR writers use for stops, targets and entries. */
const atrMultiples = [0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5];

/** One price with its two readings: exact, and as the agents were shown it. */
interface Level {
  path: string;
  readings: number[];
}

const readings = (source: SourceValue): number[] =>
  typeof source.value === 'number' ? [source.value, ...(source.shown !== undefined ? [source.shown] : [])] : [];

function levelOf(sources: readonly SourceValue[], path: string): Level | null {
  const source = sources.find((candidate) => candidate.path === path);
  return source && typeof source.value === 'number' ? { path, readings: readings(source) } : null;
}

/** Pairs the readings of two levels: exact with exact, shown with shown. */
function zip(a: Level, b: Level): Array<[number, number]> {
  const pairs: Array<[number, number]> = [[a.readings[0]!, b.readings[0]!]];
  const shownA = a.readings[1] ?? a.readings[0]!;
  const shownB = b.readings[1] ?? b.readings[0]!;
  if (a.readings.length > 1 || b.readings.length > 1) pairs.push([shownA, shownB]);
  return pairs;
}

const anchorPaths = [
  'snapshot.indicators.lastClose',
  'decision.entry',
  'decision.stopLoss',
  'decision.takeProfit',
  'snapshot.indicators.support',
  'snapshot.indicators.resistance',
];

/**
 * The derived values of a run. `extraAnchors` are prices the same text already established
 * (a stop "2 × ATR below" an entry the text stated and the data supports).
 */
export function derivedValues(
  sources: readonly SourceValue[],
  decision: DecisionLevels | null,
  extraAnchors: readonly Level[] = [],
): DerivedValue[] {
  const atr = levelOf(sources, 'snapshot.indicators.atr14');
  const close = levelOf(sources, 'snapshot.indicators.lastClose') ?? levelOf(sources, 'snapshot.quote.price');
  const prices = sources
    .filter(
      (source) =>
        source.kind === 'price' &&
        !source.path.startsWith('snapshot.text') &&
        source.path !== 'snapshot.indicators.atr14' &&
        source.path !== 'snapshot.quote.change',
    )
    .map((source): Level => ({ path: source.path, readings: readings(source) }));
  const anchors = [...anchorPaths.flatMap((path) => levelOf(sources, path) ?? []), ...extraAnchors];
  return [
    ...specific(sources, decision, atr, close),
    ...(atr ? anchors.flatMap((anchor) => atrSteps(anchor, atr)) : []),
    ...anchors.flatMap((anchor) => distances(anchor, prices, atr)),
  ];
}

function specific(
  sources: readonly SourceValue[],
  decision: DecisionLevels | null,
  atr: Level | null,
  close: Level | null,
): DerivedValue[] {
  const values: DerivedValue[] = [];
  const add = (path: string, kind: DerivedValue['kind'], value: number, key?: string) => {
    if (Number.isFinite(value)) values.push({ path, kind, value, tier: 'specific', ...(key ? { key } : {}) });
  };
  if (atr && close) {
    for (const k of atrMultiples) {
      for (const [a, c] of zip(atr, close)) add(`${k} × ATR ÷ lastClose`, 'percent', ((k * a) / c) * 100);
    }
  }
  if (!decision) return values;
  const entry = levelOf(sources, 'decision.entry');
  const fill = decision.orderType === 'market' || entry === null ? close : entry;
  for (const [name, basis] of [
    ['decision.entry', entry],
    ['lastClose', close],
  ] as const) {
    if (!basis) continue;
    for (const [at, stop, target] of levelTriples(basis, decision)) {
      const risk = Math.abs(at - stop);
      if (risk > 0 && target !== null)
        add(`(takeProfit − ${name}) ÷ (${name} − stopLoss)`, 'ratio', Math.abs(target - at) / risk);
      if (decision.positionSizePct > 0 && (basis === fill || name === 'lastClose'))
        add(
          `positionSizePct × |${name} − stopLoss| ÷ ${name}`,
          'percent',
          (decision.positionSizePct * risk) / at,
          'riskPerTrade',
        );
      if (risk > 0) add(`|${name} − stopLoss|`, 'price', risk, 'riskPerShare');
    }
  }
  values.push(...levelDistances(sources));
  if (atr) {
    const levels = [
      'decision.entry',
      'decision.stopLoss',
      'decision.takeProfit',
      'snapshot.indicators.lastClose',
    ].flatMap((path) => levelOf(sources, path) ?? []);
    for (const a of levels) {
      for (const b of levels) {
        if (a.path >= b.path) continue;
        for (const [x, y] of zip(a, b)) add(`|${a.path} − ${b.path}| ÷ ATR`, 'atr', Math.abs(x - y) / atr.readings[0]!);
        const shownAtr = atr.readings[1] ?? atr.readings[0]!;
        for (const [x, y] of zip(a, b)) add(`|${a.path} − ${b.path}| ÷ ATR`, 'atr', Math.abs(x - y) / shownAtr);
      }
    }
  }
  return values;
}

/**
 * The decision's levels against the close and each other, in price and percent (of either
 * level): few and meaningful, so they match like any source ("a limit 1.6 % under the close").
 */
function levelDistances(sources: readonly SourceValue[]): DerivedValue[] {
  const levels = [
    'decision.entry',
    'decision.stopLoss',
    'decision.takeProfit',
    'snapshot.indicators.lastClose',
  ].flatMap((path) => levelOf(sources, path) ?? []);
  const values: DerivedValue[] = [];
  for (const a of levels) {
    for (const b of levels) {
      if (a.path >= b.path) continue;
      for (const [x, y] of zip(a, b)) {
        if (x <= 0 || y <= 0) continue;
        values.push(
          { path: `|${a.path} − ${b.path}|`, kind: 'price', value: Math.abs(x - y), tier: 'specific' },
          {
            path: `|${a.path} − ${b.path}| ÷ ${b.path}`,
            kind: 'percent',
            value: (Math.abs(x - y) / y) * 100,
            tier: 'specific',
          },
          {
            path: `|${a.path} − ${b.path}| ÷ ${a.path}`,
            kind: 'percent',
            value: (Math.abs(x - y) / x) * 100,
            tier: 'specific',
          },
        );
      }
    }
  }
  return values;
}

function levelTriples(basis: Level, decision: DecisionLevels): Array<[number, number, number | null]> {
  if (decision.stopLoss === null) return [];
  return basis.readings.map((at) => [at, decision.stopLoss as number, decision.takeProfit]);
}

function atrSteps(anchor: Level, atr: Level): DerivedValue[] {
  const values: DerivedValue[] = [];
  for (const k of atrMultiples) {
    for (const [level, range] of zip(anchor, atr)) {
      values.push({
        path: `${anchor.path} + ${k} × ATR`,
        kind: 'price',
        value: level + k * range,
        tier: 'combinatorial',
      });
      values.push({
        path: `${anchor.path} − ${k} × ATR`,
        kind: 'price',
        value: level - k * range,
        tier: 'combinatorial',
      });
    }
  }
  return values;
}

function distances(anchor: Level, prices: readonly Level[], atr: Level | null): DerivedValue[] {
  const values: DerivedValue[] = [];
  for (const price of prices) {
    if (price.path === anchor.path) continue;
    for (const [a, p] of zip(anchor, price)) {
      if (a <= 0 || p <= 0) continue;
      values.push({ path: `${anchor.path} − ${price.path}`, kind: 'price', value: a - p, tier: 'combinatorial' });
      values.push({
        path: `(${price.path} − ${anchor.path}) ÷ ${anchor.path}`,
        kind: 'percent',
        value: ((p - a) / a) * 100,
        tier: 'combinatorial',
      });
      values.push({
        path: `(${anchor.path} − ${price.path}) ÷ ${price.path}`,
        kind: 'percent',
        value: ((a - p) / p) * 100,
        tier: 'combinatorial',
      });
      if (atr)
        values.push({
          path: `|${anchor.path} − ${price.path}| ÷ ATR`,
          kind: 'atr',
          value: Math.abs(a - p) / atr.readings[0]!,
          tier: 'combinatorial',
        });
    }
  }
  return values;
}

export type { Level };
