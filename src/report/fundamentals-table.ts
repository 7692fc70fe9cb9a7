import type { FundamentalConcept, FundamentalPeriod, Fundamentals } from '../market/fundamentals-types.js';
import type { Part } from './view-types.js';

/**
 * The compact fundamentals table of a report: one row per period the desks saw (the last
 * quarters, then the fiscal years), the headline figures, and the filing each came from;
 * then the valuation at the as-of close in one line.
 */

function amount(value: number | undefined): string {
  if (value === undefined) return '—';
  const size = Math.abs(value);
  if (size >= 1e12) return `${(value / 1e12).toFixed(2)} T`;
  if (size >= 1e9) return `${(value / 1e9).toFixed(2)} B`;
  if (size >= 1e6) return `${(value / 1e6).toFixed(2)} M`;
  return value.toFixed(2);
}

const percent = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? `${(value * 100).toFixed(1)} %` : '—';

function valueOf(period: FundamentalPeriod, concept: FundamentalConcept): number | undefined {
  return period.figures.find((figure) => figure.concept === concept)?.value;
}

/** The filing of the period's revenue (else its first figure): "10-Q 2024-08-01". */
function filedBy(period: FundamentalPeriod): string {
  const figure = period.figures.find((entry) => entry.concept === 'revenue') ?? period.figures[0];
  if (!figure) return '—';
  const day = /^\d{4}-\d{2}-\d{2}/.test(figure.acceptedAt) ? figure.acceptedAt.slice(0, 10) : figure.acceptedAt;
  return `${figure.form} ${day}${figure.restated ? ' (restated)' : ''}`;
}

function row(period: FundamentalPeriod): string[] {
  const eps = valueOf(period, 'epsDiluted');
  return [
    period.label,
    amount(valueOf(period, 'revenue')),
    percent(period.revenueGrowthYoY),
    percent(period.operatingMargin),
    amount(valueOf(period, 'netIncome')),
    eps === undefined ? '—' : eps.toFixed(2),
    amount(valueOf(period, 'freeCashFlow')),
    filedBy(period),
  ];
}

const valuationWords = {
  marketCap: 'market cap',
  peTrailing: 'P/E',
  priceToSales: 'P/S',
  priceToBook: 'P/B',
  fcfYield: 'FCF yield',
};

function valuationText(fundamentals: Fundamentals): string | null {
  const shown = fundamentals.valuation.map((figure) => {
    if (figure.value === null) return `${valuationWords[figure.name]} ${figure.note ?? '—'}`;
    if (figure.name === 'marketCap')
      return `${valuationWords[figure.name]} ${amount(figure.value)} ${fundamentals.currency}`;
    if (figure.name === 'fcfYield') return `${valuationWords[figure.name]} ${percent(figure.value)}`;
    return `${valuationWords[figure.name]} ${figure.value.toFixed(1)}`;
  });
  return shown.length > 0 ? `Valuation at the as-of close: ${shown.join(' · ')}.` : null;
}

export function fundamentalsParts(fundamentals: Fundamentals | undefined): Part[] {
  if (!fundamentals) return [];
  const periods = [...fundamentals.quarters, ...fundamentals.years];
  const valuation = valuationText(fundamentals);
  return [
    {
      kind: 'table',
      table: {
        key: 'fundamentals',
        title: `Fundamentals (${fundamentals.vendorLabel}, ${fundamentals.currency})`,
        columns: ['Period', 'Revenue', 'YoY', 'Op. margin', 'Net income', 'Diluted EPS', 'FCF', 'Filed'].map(
          (label, index) => ({ key: `column${index}`, label }),
        ),
        rows: periods.length > 0 ? periods.map(row) : [['not available', '—', '—', '—', '—', '—', '—', '—']],
      },
    },
    ...(valuation ? [{ kind: 'text' as const, key: 'valuation', text: valuation, tone: 'muted' as const }] : []),
  ];
}
