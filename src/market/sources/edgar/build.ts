import type { Fundamentals, SplitEvent } from '../../fundamentals-types.js';
import { valuationFigures } from '../../fundamentals-valuation.js';
import { knownSeries } from './as-filed.js';
import type { CompanyFacts, Filing } from './documents.js';
import { recentFilings } from './filings.js';
import { periodOf, reportedSpans } from './periods.js';
import { valuationInputs } from './trailing.js';

/** The Fundamentals of one company as known at D's close, from its two EDGAR documents. Pure. */

export const edgarVendor = 'sec-edgar';
export const edgarLabel = 'SEC EDGAR (as filed)';

export interface BuildInput {
  facts: CompanyFacts | null;
  /** Every filing of the index, all pages that could be read. */
  filings: readonly Filing[];
  /** ISO UTC instant of D's close. */
  close: string;
  splits: readonly SplitEvent[];
  /** The close as traded on D. */
  asTradedClose: number | null;
  notes?: string[];
}

const quartersShown = 4;
const yearsShown = 3;

export function buildFundamentals(input: BuildInput): Fundamentals {
  const byAccession = new Map(input.filings.map((filing) => [filing.accession, filing]));
  const day = newYorkDayOf(input.close);
  const notes = [...(input.notes ?? [])];
  const recent = recentFilings(input.filings, input.close);
  const base = { vendor: edgarVendor, vendorLabel: edgarLabel, currency: 'USD' };
  if (!input.facts) {
    notes.push('no financial statements filed in XBRL with the SEC');
    return { ...base, quarters: [], years: [], valuation: [], ...recent, notes };
  }
  const series = knownSeries(input.facts, { filings: byAccession, close: input.close, day, splits: input.splits });
  const spans = reportedSpans(series);
  const quarters = spans.quarters.slice(0, quartersShown).map((span) => periodOf(series, span, spans.quarters));
  const years = spans.years.slice(0, yearsShown).map((span) => periodOf(series, span, spans.years));
  const valuation = valuationFigures(valuationInputs(series, spans.years[0], input.asTradedClose, 'USD'));
  if (quarters.length === 0 && years.length === 0) notes.push(`no statements filed by ${day}`);
  return { ...base, quarters, years, valuation, ...recent, notes };
}

/** D's day from its close instant: the close is in the afternoon in New York, so the UTC date is D's. */
function newYorkDayOf(close: string): string {
  return close.slice(0, 10);
}
