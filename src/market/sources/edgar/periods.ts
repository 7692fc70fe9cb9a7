import type { FundamentalConcept, FundamentalFigure, FundamentalPeriod } from '../../fundamentals-types.js';
import { periodKey, type KnownSeries, type KnownValue } from './as-filed.js';
import { seriesSpecs, type SeriesName } from './concepts.js';

/**
 * Periods from their dates alone. One filing reports several spans with the same end (a
 * 10-Q: the quarter and the year to date), so a span is classed by its length: a quarter
 * is 80–100 days, a fiscal year 350–380 (52 or 53 weeks). A quarter no filing reports
 * directly (Q4, or a cash flow filed only year-to-date) is the year-to-date span minus the
 * one before it. A period appears only once a filing accepted by D's close reports it.
 */

const dayMs = 86_400_000;

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

/** Days covered, both ends included. */
export function spanDays(start: string, end: string): number {
  return Math.round((Date.parse(end) - Date.parse(start)) / dayMs) + 1;
}

export const isQuarterSpan = (days: number) => days >= 80 && days <= 100;
export const isYearSpan = (days: number) => days >= 350 && days <= 380;

export interface Span {
  kind: 'quarter' | 'year';
  start: string;
  end: string;
}

const periodSeries: SeriesName[] = ['revenue', 'netIncome'];

function durationKeys(series: KnownSeries): Array<{ start: string; end: string }> {
  return periodSeries.flatMap((name) =>
    [...series[name].values()].flatMap((value) => (value.start ? [{ start: value.start, end: value.end }] : [])),
  );
}

function unique(spans: Span[]): Span[] {
  const byKey = new Map(spans.map((span) => [`${span.kind}:${span.start}..${span.end}`, span]));
  return [...byKey.values()].sort((left, right) => right.end.localeCompare(left.end));
}

/** Every fiscal year and quarter reported by D, newest first (Q4 from the year minus nine months). */
export function reportedSpans(series: KnownSeries): { quarters: Span[]; years: Span[] } {
  const keys = durationKeys(series);
  const years = keys.filter(({ start, end }) => isYearSpan(spanDays(start, end)));
  const quarters = keys.filter(({ start, end }) => isQuarterSpan(spanDays(start, end)));
  const fourths = years.flatMap((year) =>
    keys
      .filter((key) => key.start === year.start && key.end < year.end)
      .map((key) => ({ start: addDays(key.end, 1), end: year.end }))
      .filter(({ start, end }) => isQuarterSpan(spanDays(start, end))),
  );
  return {
    quarters: unique([...quarters, ...fourths].map((span) => ({ kind: 'quarter', ...span }))),
    years: unique(years.map((span) => ({ kind: 'year', ...span }))),
  };
}

function later(left: KnownValue, right: KnownValue): KnownValue {
  return Date.parse(left.acceptedAt) >= Date.parse(right.acceptedAt) ? left : right;
}

/** A flow over a span: as reported, or (additive flows) a longer span from the same start minus the part before. */
export function durationValue(
  series: KnownSeries,
  name: SeriesName,
  start: string,
  end: string,
): KnownValue | undefined {
  const values = series[name];
  const direct = values.get(periodKey(start, end));
  if (direct || !seriesSpecs[name].additive) return direct;
  for (const whole of values.values()) {
    if (whole.end !== end || !whole.start || whole.start >= start) continue;
    const before = values.get(periodKey(whole.start, addDays(start, -1)));
    if (!before) continue;
    const source = later(whole, before);
    return {
      start,
      end,
      value: whole.value - before.value,
      form: source.form,
      accession: source.accession,
      acceptedAt: source.acceptedAt,
    };
  }
  return undefined;
}

export function instantValue(series: KnownSeries, name: SeriesName, end: string): KnownValue | undefined {
  return series[name].get(periodKey(undefined, end));
}

/** Total debt at an instant: term debt (or its current and non-current parts) plus commercial paper. */
export function totalDebtAt(series: KnownSeries, end: string): KnownValue | undefined {
  const term = instantValue(series, 'longTermDebt', end);
  const parts = [instantValue(series, 'longTermDebtCurrent', end), instantValue(series, 'longTermDebtNoncurrent', end)];
  const components = [
    ...(term ? [term] : parts.filter((part): part is KnownValue => part !== undefined)),
    ...[instantValue(series, 'commercialPaper', end)].filter((part): part is KnownValue => part !== undefined),
  ];
  if (components.length === 0) return undefined;
  const source = components.reduce(later);
  const value = components.reduce((sum, part) => sum + part.value, 0);
  return { end, value, form: source.form, accession: source.accession, acceptedAt: source.acceptedAt };
}

function figure(concept: FundamentalConcept, known: KnownValue | undefined): FundamentalFigure[] {
  if (!known) return [];
  const unit = concept === 'epsDiluted' ? 'per-share' : concept === 'sharesDiluted' ? 'shares' : 'currency';
  return [
    {
      concept,
      value: known.value,
      unit,
      ...(known.start ? { periodStart: known.start } : {}),
      periodEnd: known.end,
      form: known.form,
      acceptedAt: known.acceptedAt,
      ...(known.restated ? { restated: known.restated } : {}),
    },
  ];
}

function freeCashFlow(operating: KnownValue | undefined, capex: KnownValue | undefined): KnownValue | undefined {
  if (!operating || !capex) return undefined;
  return {
    ...later(operating, capex),
    start: operating.start,
    end: operating.end,
    value: operating.value - capex.value,
    restated: undefined,
  };
}

/** The figures of one period, each with the form and acceptance of the filing it came from. */
export function figuresOf(series: KnownSeries, span: Span): FundamentalFigure[] {
  const flow = (name: SeriesName) => durationValue(series, name, span.start, span.end);
  const operating = flow('operatingCashFlow');
  const capex = flow('capex');
  return [
    ...figure('revenue', flow('revenue')),
    ...figure('grossProfit', flow('grossProfit')),
    ...figure('operatingIncome', flow('operatingIncome')),
    ...figure('netIncome', flow('netIncome')),
    ...figure('epsDiluted', flow('epsDiluted')),
    ...figure('operatingCashFlow', operating),
    ...figure('capex', capex),
    ...figure('freeCashFlow', freeCashFlow(operating, capex)),
    ...figure('cash', instantValue(series, 'cash', span.end)),
    ...figure('totalDebt', totalDebtAt(series, span.end)),
    ...figure('totalAssets', instantValue(series, 'totalAssets', span.end)),
    ...figure('equity', instantValue(series, 'equity', span.end)),
    ...figure('sharesDiluted', flow('sharesDiluted')),
  ];
}

const valueOf = (figures: FundamentalFigure[], concept: FundamentalConcept) =>
  figures.find((entry) => entry.concept === concept)?.value;

/** The same kind of span about a year earlier (357–373 days). */
function yearEarlier(spans: readonly Span[], span: Span): Span | undefined {
  return spans.find((other) => {
    const gap = (Date.parse(span.end) - Date.parse(other.end)) / dayMs;
    return other.kind === span.kind && gap >= 357 && gap <= 373;
  });
}

/** A period as the desks read it: its figures, margins and revenue growth on the year-earlier period. */
export function periodOf(series: KnownSeries, span: Span, sameKind: readonly Span[]): FundamentalPeriod {
  const figures = figuresOf(series, span);
  const revenue = valueOf(figures, 'revenue');
  const ratio = (concept: FundamentalConcept) => {
    const part = valueOf(figures, concept);
    return part !== undefined && revenue ? part / revenue : null;
  };
  const earlier = yearEarlier(sameKind, span);
  const earlierRevenue = earlier ? durationValue(series, 'revenue', earlier.start, earlier.end)?.value : undefined;
  return {
    kind: span.kind,
    periodStart: span.start,
    periodEnd: span.end,
    label: `${span.kind === 'year' ? 'FY' : 'Q'} ending ${span.end}`,
    figures,
    revenueGrowthYoY: revenue !== undefined && earlierRevenue ? revenue / earlierRevenue - 1 : null,
    grossMargin: ratio('grossProfit'),
    operatingMargin: ratio('operatingIncome'),
  };
}
