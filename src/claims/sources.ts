import { maxDrawdownWindow, yearOfCloses } from '../market/indicators.js';
import type { Indicators, MarketSnapshot, QuoteStats } from '../market/types.js';
import { extractFigures, type Figure } from './extract.js';
import { fundamentalsSources } from './fundamentals.js';
import type { PeriodRef } from './periods.js';

/** The unit a source value is in. Fractions of the snapshot (returns, volatility) are held in percent. */
export type SourceKind = 'price' | 'percent' | 'number' | 'amount' | 'ratio' | 'atr' | 'date';

export interface SourceValue {
  /** A named path (`snapshot.indicators.rsi14`, `decision.stopLoss`, `exa_search#1[0].publishedDate`) or a formula. */
  path: string;
  kind: SourceKind;
  value: number | string;
  /** The value as the agents were shown it (the market block rounds: 53.6, 4.57), when that differs. */
  shown?: number;
  /** Decimals the data has it to (RSI 1, prices 2): how a contradiction quotes the truth (53.6, not 54). */
  decimals?: number;
  /** The quantity it answers to besides its path (`fundamentals.revenue`, `riskPerTrade`): see quantities.ts. */
  key?: string;
  /** The filed period of a fundamentals value. */
  period?: PeriodRef;
}

/** The decision's fields the claims read; a plain shape so old saved decisions and test doubles fit. */
export interface DecisionLevels {
  action: string;
  orderType: string;
  entry: number | null;
  stopLoss: number | null;
  takeProfit: number | null;
  positionSizePct: number;
  conviction: number;
}

export interface ToolCallLike {
  name: string;
  result: string | null;
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const round = (value: number, decimals: number) => Number(value.toFixed(decimals));
/** How the market block prints a price: 4 decimals below 2, else 2 (snapshot-text.ts formatPrice). */
export const shownPrice = (value: number) => round(value, priceDecimals(value));
const priceDecimals = (value: number) => (Math.abs(value) < 2 ? 4 : 2);

type Field = [path: string, kind: SourceKind, value: number | null | undefined, shownDecimals?: number];

/** The keys of `Shape` that hold a number. */
type NumberKey<Shape> = {
  [Key in keyof Shape & string]: Shape[Key] extends number | null | undefined ? Key : never;
}[keyof Shape & string];

/** How a group of fields is read: a unit as it is, or `fraction` (held in percent, shown to 2 decimals). */
type FieldUnit = SourceKind | 'fraction';

/** Every number and date of the snapshot, by its path; fractions in percent. */
export function snapshotSources(snapshot: MarketSnapshot | null): SourceValue[] {
  if (!snapshot) return [];
  const { quote, indicators } = snapshot;
  const fraction = (value: number | null | undefined) => (finite(value) ? value * 100 : null);
  const field = (path: string, unit: FieldUnit, value: number | null | undefined, decimals?: number): Field =>
    unit === 'fraction' ? [path, 'percent', fraction(value), 2] : [path, unit, value, decimals];
  const ofQuote = (unit: FieldUnit, names: ReadonlyArray<NumberKey<QuoteStats>>, decimals?: number) =>
    names.map((name) => field(`snapshot.quote.${name}`, unit, quote[name], decimals));
  const ofIndicators = (unit: FieldUnit, names: ReadonlyArray<NumberKey<Indicators>>, decimals?: number) =>
    names.map((name) => field(`snapshot.indicators.${name}`, unit, indicators[name], decimals));
  const fields: Field[] = [
    ...ofIndicators('price', ['lastClose']),
    ...ofQuote('price', ['price', 'change']),
    ...ofQuote('percent', ['changePercent'], 2),
    ...ofIndicators('price', ['sma20', 'sma50', 'sma200']),
    ...ofIndicators('number', ['rsi14'], 1),
    ...ofIndicators('price', ['atr14', 'high52w', 'low52w']),
    ...ofQuote('price', ['fiftyTwoWeekHigh', 'fiftyTwoWeekLow']),
    ...ofIndicators('price', ['support', 'resistance']),
    ...ofQuote('price', ['targetMeanPrice']),
    ...ofQuote('number', ['beta', 'trailingPE', 'forwardPE'], 2),
    ...ofQuote('amount', ['marketCap', 'averageVolume']),
    ...ofIndicators('amount', ['averageVolume20d', 'averageVolume1y']),
    ...ofIndicators('number', ['volumeRatio'], 2),
    ...ofQuote('percent', ['debtToEquity'], 2),
    ...ofQuote('fraction', ['dividendYield', 'profitMargin', 'revenueGrowth']),
    ...ofIndicators('fraction', ['volatility20d', 'volatility1y', 'maxDrawdown1y']),
    ...Object.entries(indicators.returns ?? {}).map(([name, value]) =>
      field(`snapshot.indicators.returns.${name}`, 'fraction', value),
    ),
    ...ofIndicators('fraction', [
      'distanceFromSma20',
      'distanceFromSma50',
      'distanceFromSma200',
      'distanceFromHigh52w',
      'distanceFromLow52w',
    ]),
  ];
  const values = fields.flatMap(([path, kind, value, decimals]): SourceValue[] => {
    if (!finite(value)) return [];
    const shown = kind === 'price' ? shownPrice(value) : decimals !== undefined ? round(value, decimals) : undefined;
    const precision = kind === 'price' ? priceDecimals(value) : decimals;
    return [
      {
        path,
        kind,
        value,
        ...(shown !== undefined && shown !== value ? { shown } : {}),
        ...(precision !== undefined ? { decimals: precision } : {}),
      },
    ];
  });
  return [
    ...values,
    ...snapshotDates(snapshot),
    ...fundamentalsSources(snapshot.fundamentals),
    ...textSources('snapshot.text', snapshot.text ?? ''),
  ];
}

function snapshotDates(snapshot: MarketSnapshot): SourceValue[] {
  const dates: Array<[string, string | null | undefined]> = [
    ['snapshot.asOf', snapshot.asOf?.slice(0, 10)],
    ['snapshot.indicators.asOfBar', snapshot.indicators.asOfBar],
    ['snapshot.quote.priceTime', snapshot.quote.priceTime?.slice(0, 10)],
    ['snapshot.bars[0].date', snapshot.bars?.[0]?.date],
    ['snapshot.bars[-1].date', snapshot.bars?.at(-1)?.date],
  ];
  const window = snapshot.bars?.length ? maxDrawdownWindow(yearOfCloses(snapshot.bars)) : null;
  if (window)
    dates.push(['snapshot.maxDrawdown1y.peak', window.peak], ['snapshot.maxDrawdown1y.trough', window.trough]);
  return dates.flatMap(([path, value]): SourceValue[] => (value ? [{ path, kind: 'date', value }] : []));
}

/** The decision's own numbers. */
export function decisionSources(decision: DecisionLevels | null): SourceValue[] {
  if (!decision) return [];
  const fields: Field[] = [
    ['decision.entry', 'price', decision.entry, 2],
    ['decision.stopLoss', 'price', decision.stopLoss, 2],
    ['decision.takeProfit', 'price', decision.takeProfit, 2],
    ['decision.positionSizePct', 'percent', decision.positionSizePct, 2],
    ['decision.conviction', 'number', decision.conviction, 0],
  ];
  return fields.flatMap(([path, kind, value, decimals]): SourceValue[] =>
    finite(value) ? [{ path, kind, value, decimals: Math.min(decimals ?? 2, decimalsOf(value)) }] : [],
  );
}

/** The decimals a number is written with, at most 4 (4 → 0, 2.5 → 1). */
export const decimalsOf = (value: number) => {
  for (let decimals = 0; decimals < 4; decimals += 1) if (Number(value.toFixed(decimals)) === value) return decimals;
  return 4;
};

/** A figure of a source text (the market block, a tool result) as a source value. */
function figureSource(path: string, figure: Figure): SourceValue {
  const kinds: Record<Figure['unit'], SourceKind> = {
    currency: 'price',
    percent: 'percent',
    number: 'number',
    atr: 'atr',
    ratio: 'ratio',
    date: 'date',
  };
  return {
    path,
    kind: kinds[figure.unit],
    value: figure.value,
    ...(figure.scale === 1 ? { decimals: figure.decimals } : {}),
  };
}

/** The figures of a text the agent read, all labelled with one path. */
export function textSources(path: string, text: string): SourceValue[] {
  return extractFigures(text).map((figure) => figureSource(path, figure));
}

/**
 * What the desk's tools returned: JSON walked leaf by leaf (numbers, ISO dates, figures in
 * strings), other text read for its figures. A tool that failed returned nothing to check against.
 */
export function toolSources(calls: readonly ToolCallLike[]): SourceValue[] {
  return calls.flatMap((call, index) => {
    if (!call.result) return [];
    const label = `${call.name}#${index + 1}`;
    const documents = jsonDocuments(call.result);
    if (documents.length === 0) return textSources(label, call.result);
    return documents.flatMap((document) => walk(label, document));
  });
}

/** The JSON values in a tool result (exa_search frames one JSON array between marker lines). */
function jsonDocuments(text: string): unknown[] {
  const candidates = [text.trim(), ...text.split('\n').map((line) => line.trim())].filter((line) => /^[[{]/.test(line));
  for (const candidate of candidates) {
    try {
      return [JSON.parse(candidate) as unknown];
    } catch {
      // Not JSON on its own: try the next candidate.
    }
  }
  return [];
}

/** A key of tool output in a path: a plain name as `.name`, anything else (untrusted, any length) quoted and cut. */
function keyPath(key: string): string {
  return /^[A-Za-z_][\w-]{0,39}$/.test(key) ? `.${key}` : `[${JSON.stringify(key.slice(0, 24))}]`;
}

function walk(path: string, node: unknown, depth = 0): SourceValue[] {
  if (depth > 20) return [];
  if (finite(node)) return [{ path, kind: 'number', value: node, decimals: decimalsOf(node) }];
  if (typeof node === 'string') {
    const iso = /^(\d{4}-\d{2}-\d{2})(?:T[\d:.]+Z?)?$/.exec(node);
    return iso ? [{ path, kind: 'date', value: iso[1]! }] : textSources(path, node);
  }
  if (Array.isArray(node)) return node.flatMap((item, index) => walk(`${path}[${index}]`, item, depth + 1));
  if (node && typeof node === 'object') {
    return Object.entries(node).flatMap(([key, value]) => walk(`${path}${keyPath(key)}`, value, depth + 1));
  }
  return [];
}
