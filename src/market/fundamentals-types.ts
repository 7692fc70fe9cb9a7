/**
 * Fundamentals as filed: what a source such as SEC EDGAR says a company reported, point in
 * time. Every figure names its period (start/end dates, never the filing's fy/fp), the form
 * that carried it and when that filing became public. Amounts are in major currency units
 * of `currency`; per-share figures and share counts are on the basis of the snapshot's price.
 *
 * This is the contract between the fundamentals source (src/market/sources/edgar), the
 * snapshot text, the claims checker, blind runs and the reports.
 */

/** The line items the FUNDAMENTALS block shows. */
export type FundamentalConcept =
  | 'revenue'
  | 'grossProfit'
  | 'operatingIncome'
  | 'netIncome'
  | 'epsDiluted'
  | 'operatingCashFlow'
  | 'capex'
  | 'freeCashFlow'
  | 'cash'
  | 'totalDebt'
  | 'totalAssets'
  | 'equity'
  | 'sharesDiluted';

export interface FundamentalFigure {
  concept: FundamentalConcept;
  value: number;
  /** 'currency' amounts, 'per-share' amounts, or a 'shares' count. */
  unit: 'currency' | 'per-share' | 'shares';
  /** YYYY-MM-DD; absent for an instant (balance-sheet) figure. */
  periodStart?: string;
  /** YYYY-MM-DD. */
  periodEnd: string;
  /** The form that carried the value shown (10-K, 10-Q, 8-K, 10-K/A …). */
  form: string;
  /** ISO UTC instant the filing became public (its acceptance time). */
  acceptedAt: string;
  /** Set when a later filing replaced the value first reported for this period. */
  restated?: { firstValue: number; firstForm: string; firstAcceptedAt: string };
}

export interface FundamentalPeriod {
  /** 'quarter' (about 3 months) or 'year' (about 12 months). */
  kind: 'quarter' | 'year';
  /** YYYY-MM-DD. */
  periodStart: string;
  /** YYYY-MM-DD. */
  periodEnd: string;
  /** A readable label derived from the dates, e.g. "FY ending 2024-09-28", "Q ending 2024-06-29". */
  label: string;
  figures: FundamentalFigure[];
  /** Year-over-year revenue growth as a fraction, when the year-earlier period is known. */
  revenueGrowthYoY?: number | null;
  /** Fractions of revenue. */
  grossMargin?: number | null;
  operatingMargin?: number | null;
}

export interface ValuationFigure {
  /** marketCap, peTrailing, priceToSales, priceToBook, fcfYield */
  name: 'marketCap' | 'peTrailing' | 'priceToSales' | 'priceToBook' | 'fcfYield';
  /** Null with `note` "not meaningful" (for example negative earnings) or the missing input. */
  value: number | null;
  note?: string;
  /** The inputs, in words, e.g. "TTM diluted EPS 12.09 (4 quarters to 2024-06-29) × close 300.35". */
  inputs: string;
}

export interface FilingEntry {
  form: string;
  /** ISO UTC instant of acceptance. */
  acceptedAt: string;
  /** For an 8-K: its item codes in words ("2.02 results of operations"). */
  items?: string[];
  /** The accession number; blind runs drop it. */
  accession?: string;
}

export interface Fundamentals {
  /** The vendor's id, e.g. 'sec-edgar', 'demo'. */
  vendor: string;
  /** The vendor's name as the agents read it, e.g. "SEC EDGAR (as filed)", "synthetic demo data". */
  vendorLabel: string;
  currency: string;
  /** Newest first: the last 4 quarters and the last 3 fiscal years known at the as-of close. */
  quarters: FundamentalPeriod[];
  years: FundamentalPeriod[];
  valuation: ValuationFigure[];
  /** The 10-K, 10-Q and 8-K filings of the last 90 days, newest first. */
  filings: FilingEntry[];
  /** Form 4 insider filings in those 90 days. */
  insiderFilings90d: number | null;
  /** Share basis: the close as traded on the as-of day and today's adjusted close, when they differ. */
  shareBasis?: { asTradedClose: number; adjustedClose: number; splitFactor: number };
  /** Notes the block shows (not available, restated …). */
  notes: string[];
}

/**
 * A stock split (or consolidation) as the price source reports it: from the session of
 * `date` on, one share became `ratio` shares (4 for a 4:1 split, 0.5 for a 1:2 consolidation).
 */
export interface SplitEvent {
  /** YYYY-MM-DD, the first session on the new basis. */
  date: string;
  ratio: number;
}
