import type {
  FilingEntry,
  FundamentalConcept,
  FundamentalFigure,
  FundamentalPeriod,
  Fundamentals,
  ValuationFigure,
} from './fundamentals-types.js';
import { formatFraction, formatNumber, notAvailable, scaleOf } from './snapshot-format.js';

/**
 * The FUNDAMENTALS, VALUATION and FILINGS parts of the block the agents read: every figure
 * with its period and the filing (form, acceptance) it came from, every gap said. A blind
 * snapshot's fundamentals (fundamentals-blind.ts) carry relative periods and session
 * offsets instead of dates, and are written the same way. About 2,500 tokens at most.
 */

/** The parts' budget in characters (≈ 2,500 tokens at 4 characters a token). */
export const fundamentalsTextBudgetChars = 10_000;

export interface FundamentalsTextInput {
  fundamentals?: Fundamentals;
  blind?: boolean;
  /** The as-of day (or `D-0`). */
  day: string;
}

const conceptWords: Record<FundamentalConcept, string> = {
  revenue: 'revenue',
  grossProfit: 'gross profit',
  operatingIncome: 'operating income',
  netIncome: 'net income',
  epsDiluted: 'diluted EPS',
  operatingCashFlow: 'operating cash flow',
  capex: 'capex',
  freeCashFlow: 'free cash flow',
  cash: 'cash',
  totalDebt: 'total debt',
  totalAssets: 'total assets',
  equity: 'equity',
  sharesDiluted: 'diluted shares',
};

/** Shown in this order; gross profit and operating income appear as margins. */
const shownConcepts: FundamentalConcept[] = [
  'revenue',
  'netIncome',
  'epsDiluted',
  'operatingCashFlow',
  'capex',
  'freeCashFlow',
  'cash',
  'totalDebt',
  'totalAssets',
  'equity',
  'sharesDiluted',
];

export function fundamentalsLines(input: FundamentalsTextInput): string[] {
  const { fundamentals } = input;
  if (!fundamentals) return [];
  return [
    ...statementLines(fundamentals, input),
    ...valuationLines(fundamentals, input),
    ...filingLines(fundamentals, input),
  ];
}

function amount(value: number): string {
  const scale = scaleOf(value);
  return scale ? `${(value / scale.size).toFixed(2)} ${scale.suffix}` : value.toFixed(2);
}

function figureValue(figure: FundamentalFigure): string {
  if (figure.unit === 'per-share') return figure.value.toFixed(2);
  return amount(figure.value);
}

/** `2019-07-31 20:31 UTC`, or a blind session offset as it is. */
function when(acceptedAt: string): string {
  return /^\d{4}-\d{2}-\d{2}T/.test(acceptedAt)
    ? `${acceptedAt.slice(0, 10)} ${acceptedAt.slice(11, 16)} UTC`
    : acceptedAt;
}

const source = (form: string, acceptedAt: string) => `${form} accepted ${when(acceptedAt)}`;

/** The filing most of a period's figures came from: named once, in the period's heading. */
function mainSource(period: FundamentalPeriod): string | null {
  const counts = new Map<string, number>();
  for (const figure of period.figures) {
    const key = source(figure.form, figure.acceptedAt);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((left, right) => right[1] - left[1])[0]?.[0] ?? null;
}

function figureText(figure: FundamentalFigure, main: string | null, period: FundamentalPeriod): string {
  const own = source(figure.form, figure.acceptedAt);
  const from = own === main ? '' : ` [${own}]`;
  const restated = figure.restated
    ? ` (restated; first ${figure.unit === 'per-share' ? figure.restated.firstValue.toFixed(2) : amount(figure.restated.firstValue)} in ${source(figure.restated.firstForm, figure.restated.firstAcceptedAt)})`
    : '';
  const growth =
    figure.concept === 'revenue' && typeof period.revenueGrowthYoY === 'number'
      ? ` (${formatFraction(period.revenueGrowthYoY, true)} year over year)`
      : '';
  return `${conceptWords[figure.concept]} ${figureValue(figure)}${growth}${restated}${from}`;
}

function periodLine(period: FundamentalPeriod, blind: boolean): string {
  const main = mainSource(period);
  const byConcept = new Map(period.figures.map((figure) => [figure.concept, figure]));
  const shown = shownConcepts.flatMap((concept) => {
    const figure = byConcept.get(concept);
    return figure ? [figureText(figure, main, period)] : [];
  });
  const margins = [
    typeof period.grossMargin === 'number' ? `gross margin ${formatFraction(period.grossMargin)}` : null,
    typeof period.operatingMargin === 'number' ? `operating margin ${formatFraction(period.operatingMargin)}` : null,
  ].filter((text): text is string => text !== null);
  const missing = shownConcepts.filter((concept) => !byConcept.has(concept)).map((concept) => conceptWords[concept]);
  const span = blind ? period.label : `${period.label} (${period.periodStart} → ${period.periodEnd})`;
  const parts = [...shown.slice(0, 1), ...margins, ...shown.slice(1)];
  const gaps = missing.length > 0 ? `; not filed for this period: ${missing.join(', ')}` : '';
  return `- ${span}${main ? `, ${main}` : ''}: ${parts.join('; ')}${gaps}`;
}

function statementLines(fundamentals: Fundamentals, { blind, day }: FundamentalsTextInput): string[] {
  const heading = `FUNDAMENTALS (${fundamentals.vendorLabel}; what was public by the ${day} close; amounts in ${blind ? 'blind units' : fundamentals.currency}, per-share figures and share counts on the basis of that day's price)`;
  const periods = [...fundamentals.quarters, ...fundamentals.years];
  return [
    '',
    heading,
    ...(fundamentals.quarters.length > 0
      ? ['Last quarters:', ...fundamentals.quarters.map((period) => periodLine(period, blind === true))]
      : [`Quarters: ${notAvailable}`]),
    ...(fundamentals.years.length > 0
      ? ['Last fiscal years:', ...fundamentals.years.map((period) => periodLine(period, blind === true))]
      : [`Fiscal years: ${notAvailable}`]),
    ...(periods.length > 0 ? ['A period that has ended but was not yet filed by then is not listed.'] : []),
    ...fundamentals.notes.map((note) => `Note: ${note}`),
  ];
}

const valuationWords: Record<ValuationFigure['name'], string> = {
  marketCap: 'Market cap',
  peTrailing: 'Trailing P/E',
  priceToSales: 'Price/sales',
  priceToBook: 'Price/book',
  fcfYield: 'Free-cash-flow yield',
};

function valuationValue(figure: ValuationFigure, currency: string): string {
  if (figure.value === null) return figure.note ?? notAvailable;
  if (figure.name === 'marketCap') return `${amount(figure.value)} ${currency}`;
  if (figure.name === 'fcfYield') return formatFraction(figure.value);
  return formatNumber(figure.value);
}

function valuationLines(fundamentals: Fundamentals, { blind, day }: FundamentalsTextInput): string[] {
  const currency = blind ? 'blind units' : fundamentals.currency;
  const basis = fundamentals.shareBasis;
  const traded =
    basis && !blind
      ? `; the close as traded: ${basis.asTradedClose.toFixed(2)} ${currency}, ${basis.adjustedClose.toFixed(2)} in today's split-adjusted series (splits since: ×${formatNumber(basis.splitFactor, 4).replace(/\.?0+$/, '')}); the technicals use the adjusted series`
      : '';
  const lines = fundamentals.valuation.map((figure) => {
    const inputs = figure.inputs ? ` = ${figure.inputs}` : '';
    return `${valuationWords[figure.name]}: ${valuationValue(figure, currency)}${figure.value === null ? '' : inputs}`;
  });
  return [
    '',
    `VALUATION (at the ${day} close, from the filings above${traded})`,
    ...(lines.length > 0 ? lines : [`Valuation: ${notAvailable}`]),
  ];
}

function filingEntryText(entry: FilingEntry): string {
  const items = entry.items && entry.items.length > 0 ? `: items ${entry.items.join(', ')}` : '';
  return `- ${entry.form} accepted ${when(entry.acceptedAt)}${items}`;
}

function filingLines(fundamentals: Fundamentals, { day }: FundamentalsTextInput): string[] {
  const insiders = fundamentals.insiderFilings90d === null ? notAvailable : String(fundamentals.insiderFilings90d);
  return [
    '',
    `FILINGS (10-K, 10-Q and 8-K in the 90 days to the ${day} close)`,
    ...(fundamentals.filings.length > 0
      ? fundamentals.filings.map(filingEntryText)
      : [fundamentals.insiderFilings90d === null ? `Filings: ${notAvailable}` : '- none']),
    `Form 4 insider filings in those 90 days: ${insiders}`,
  ];
}
