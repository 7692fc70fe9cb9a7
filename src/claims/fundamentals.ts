/**
 * Fundamentals as filed (src/market/fundamentals-types.ts) as claim sources, each with its
 * period: every line item of every quarter and year, the margins and year-over-year growth the
 * periods carry, the valuation figures and the filings' dates. What the contract does not carry
 * is derived here, with its formula: other margins, growth between fiscal years, growth
 * against the prior quarter.
 */
import type { FundamentalConcept, FundamentalPeriod, Fundamentals } from '../market/fundamentals-types.js';
import type { DerivedValue } from './derived.js';
import type { PeriodRef } from './periods.js';
import type { SourceKind, SourceValue } from './sources.js';

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The month (1 … 12) a fiscal year ends in, half a month back (a 52/53-week year ending 2025-10-02 is September's). */
function fiscalYearEnd(fundamentals: Fundamentals): number | undefined {
  const end = fundamentals.years[0]?.periodEnd;
  if (!end) return undefined;
  return new Date(Date.parse(`${end}T00:00:00Z`) - 15 * 86_400_000).getUTCMonth() + 1;
}

function refOf(period: FundamentalPeriod, index: number, yearEnd: number | undefined): PeriodRef {
  return {
    kind: period.kind,
    periodStart: period.periodStart,
    periodEnd: period.periodEnd,
    label: period.label,
    index,
    ...(yearEnd !== undefined ? { fiscalYearEnd: yearEnd } : {}),
  };
}

const figureOf = (period: FundamentalPeriod, concept: FundamentalConcept) =>
  period.figures.find((figure) => figure.concept === concept)?.value;

const kindOf = (unit: 'currency' | 'per-share' | 'shares'): SourceKind => (unit === 'per-share' ? 'price' : 'amount');

/** The line items of one period, as filed (and as first reported, where restated). */
function lineItems(period: FundamentalPeriod, base: string, ref: PeriodRef): SourceValue[] {
  return period.figures.flatMap((figure): SourceValue[] => {
    if (!finite(figure.value)) return [];
    const value: SourceValue = {
      path: `${base}.${figure.concept}`,
      kind: kindOf(figure.unit),
      value: figure.value,
      key: `fundamentals.${figure.concept}`,
      period: ref,
      ...(figure.unit === 'per-share' ? { decimals: 2 } : {}),
    };
    const first = figure.restated && finite(figure.restated.firstValue);
    return first
      ? [
          value,
          { path: `${base}.${figure.concept}.firstReported`, kind: value.kind, value: figure.restated!.firstValue },
        ]
      : [value];
  });
}

/** The fractions a period carries (growth, margins), in percent. */
function carried(period: FundamentalPeriod, base: string, ref: PeriodRef): SourceValue[] {
  const fields: Array<[string, string, number | null | undefined]> = [
    ['revenueGrowthYoY', 'fundamentals.revenue.growth', period.revenueGrowthYoY],
    ['grossMargin', 'fundamentals.grossMargin', period.grossMargin],
    ['operatingMargin', 'fundamentals.operatingMargin', period.operatingMargin],
  ];
  return fields.flatMap(([name, key, value]): SourceValue[] =>
    finite(value)
      ? [{ path: `${base}.${name}`, kind: 'percent', value: value * 100, decimals: 1, key, period: ref }]
      : [],
  );
}

/** Margins the period does not carry: each line item ÷ revenue. */
function margins(period: FundamentalPeriod, base: string, ref: PeriodRef): DerivedValue[] {
  const revenue = figureOf(period, 'revenue');
  if (!finite(revenue) || revenue === 0) return [];
  const ratios: Array<[string, FundamentalConcept]> = [
    ['grossMargin', 'grossProfit'],
    ['operatingMargin', 'operatingIncome'],
    ['netMargin', 'netIncome'],
    ['fcfMargin', 'freeCashFlow'],
  ];
  return ratios.flatMap(([id, concept]): DerivedValue[] => {
    const value = figureOf(period, concept);
    if (!finite(value)) return [];
    return [
      {
        path: `${base}.${concept} ÷ ${base}.revenue`,
        kind: 'percent',
        value: (value / revenue) * 100,
        key: `fundamentals.${id}`,
        period: ref,
        tier: 'specific',
      },
    ];
  });
}

/** Growth of every line item from one period to an earlier one. */
function growth(
  later: FundamentalPeriod,
  earlier: FundamentalPeriod,
  bases: [string, string],
  ref: PeriodRef,
  suffix: string,
): DerivedValue[] {
  return later.figures.flatMap((figure): DerivedValue[] => {
    const before = figureOf(earlier, figure.concept);
    if (!finite(before) || before === 0 || !finite(figure.value)) return [];
    const [now, then] = bases.map((base) => `${base}.${figure.concept}`);
    return [
      {
        path: `(${now} − ${then}) ÷ |${then}|`,
        kind: 'percent',
        value: ((figure.value - before) / Math.abs(before)) * 100,
        key: `fundamentals.${figure.concept}.growth${suffix}`,
        period: ref,
        tier: 'specific',
      },
    ];
  });
}

function periodSources(
  periods: readonly FundamentalPeriod[],
  name: string,
  yearEnd: number | undefined,
): SourceValue[] {
  return periods.flatMap((period, index) => {
    const base = `fundamentals[${period.label}]`;
    const ref = refOf(period, index, yearEnd);
    const earlier = periods[index + 1];
    const change = earlier
      ? growth(period, earlier, [base, `fundamentals[${earlier.label}]`], ref, name === 'years' ? '' : '.qoq')
      : [];
    const dates: SourceValue[] = [
      { path: `${base}.periodEnd`, kind: 'date', value: period.periodEnd },
      { path: `${base}.periodStart`, kind: 'date', value: period.periodStart },
    ];
    return [
      ...lineItems(period, base, ref),
      ...carried(period, base, ref),
      ...margins(period, base, ref),
      ...change,
      ...dates,
    ];
  });
}

/** The valuation figures (fractions such as the free-cash-flow yield in percent) and the filings' dates. */
function valuationAndFilings(fundamentals: Fundamentals): SourceValue[] {
  const valuation = fundamentals.valuation.flatMap((figure): SourceValue[] => {
    if (!finite(figure.value)) return [];
    const path = `fundamentals.valuation.${figure.name}`;
    if (figure.name === 'marketCap') return [{ path, kind: 'amount', value: figure.value }];
    if (figure.name === 'fcfYield') {
      const percent = Math.abs(figure.value) < 1 ? figure.value * 100 : figure.value;
      return [{ path, kind: 'percent', value: percent, decimals: 2 }];
    }
    return [{ path, kind: 'number', value: figure.value, decimals: 2 }];
  });
  const filings = fundamentals.filings.map((filing, index): SourceValue => ({
    path: `fundamentals.filings[${index}].acceptedAt (${filing.form})`,
    kind: 'date',
    value: filing.acceptedAt.slice(0, 10),
  }));
  return [...valuation, ...filings];
}

/** Every figure of the fundamentals as a source; none when the snapshot has no fundamentals. */
export function fundamentalsSources(fundamentals: Fundamentals | undefined): SourceValue[] {
  if (!fundamentals) return [];
  const yearEnd = fiscalYearEnd(fundamentals);
  return [
    ...periodSources(fundamentals.quarters ?? [], 'quarters', yearEnd),
    ...periodSources(fundamentals.years ?? [], 'years', yearEnd),
    ...valuationAndFilings(fundamentals),
  ];
}
