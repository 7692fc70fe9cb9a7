import type { Fundamentals } from './fundamentals-types.js';
import type { MarketSource } from './source.js';
import { buildFundamentals } from './sources/edgar/build.js';
import type { CompanyFacts, Filing } from './sources/edgar/documents.js';

/**
 * Synthetic fundamentals of the demo's fictional ACME, labelled as such. They are written
 * in the shape SEC's documents have and go through the same as-filed rule, so the demo
 * shows what a real run shows; nothing here is real and no request is made.
 */

export const demoFundamentalsVendor = 'demo';
export const demoFundamentalsLabel = 'synthetic demo data, in the form of SEC filings';

interface SyntheticPeriod {
  start: string;
  end: string;
  accession: string;
  revenue: number;
  grossProfit: number;
  operatingIncome: number;
  netIncome: number;
  eps: number;
  operatingCashFlow: number;
  capex: number;
  shares: number;
}

const million = 1_000_000;

/** Fiscal years end 31 December; quarters as filed in the 10-Qs and the 10-K; amounts in millions. */
// prettier-ignore
const table: Array<[string, string, string, number, number, number, number, number, number, number]> = [
  // start, end, filing, revenue, gross profit, operating income, net income, diluted EPS, operating cash flow, capex
  ['2023-01-01', '2023-12-31', 'demo-10k-2023', 6_120, 2_510, 980, 790, 2.88, 1_120, 310],
  ['2024-01-01', '2024-12-31', 'demo-10k-2024', 7_050, 2_960, 1_170, 935, 3.41, 1_290, 355],
  ['2025-01-01', '2025-12-31', 'demo-10k-2025', 8_060, 3_470, 1_400, 1_130, 4.12, 1_510, 402],
  ['2025-07-01', '2025-09-30', 'demo-10q-2025q3', 2_030, 870, 352, 283, 1.03, 390, 101],
  ['2025-10-01', '2025-12-31', 'demo-10k-2025', 2_280, 990, 405, 326, 1.19, 430, 108],
  ['2026-01-01', '2026-03-31', 'demo-10q-2026q1', 2_190, 950, 381, 302, 1.1, 402, 104],
  ['2026-04-01', '2026-06-30', 'demo-10q-2026q2', 2_350, 1_030, 418, 334, 1.22, 441, 112],
  ['2026-07-01', '2026-09-30', 'demo-10q-2026q3', 2_410, 1_070, 433, 341, 1.24, 452, 115],
  // The nine months to date each third-quarter 10-Q also reports (the trailing twelve months need them).
  ['2025-01-01', '2025-09-30', 'demo-10q-2025q3', 5_780, 2_480, 995, 804, 2.93, 1_080, 294],
  ['2026-01-01', '2026-09-30', 'demo-10q-2026q3', 6_950, 3_050, 1_232, 977, 3.56, 1_295, 331],
];

const periods: SyntheticPeriod[] = table.map(
  ([start, end, accession, revenue, grossProfit, operatingIncome, netIncome, eps, operatingCashFlow, capex]) => ({
    start,
    end,
    accession,
    revenue,
    grossProfit,
    operatingIncome,
    netIncome,
    eps,
    operatingCashFlow,
    capex,
    shares: 274,
  }),
);

const isYear = (period: SyntheticPeriod) => period.start.endsWith('-01-01') && period.end.endsWith('-12-31');
const isQuarter = (period: SyntheticPeriod) => Date.parse(period.end) - Date.parse(period.start) < 100 * 86_400_000;

/** The scale of a balance at a period end: the year's revenue at a year end, else the quarter's × 3.6. */
function balanceBase(end: string): number {
  const year = periods.find((period) => period.end === end && isYear(period));
  if (year) return year.revenue;
  return periods.find((period) => period.end === end && isQuarter(period))!.revenue * 3.6;
}

const filings: Filing[] = [
  ['demo-10k-2023', '10-K', '2024-02-22T21:05:00.000Z', []],
  ['demo-10k-2024', '10-K', '2025-02-20T21:05:00.000Z', []],
  ['demo-10q-2025q3', '10-Q', '2025-10-30T20:10:00.000Z', []],
  ['demo-10k-2025', '10-K', '2026-02-19T21:05:00.000Z', []],
  ['demo-10q-2026q1', '10-Q', '2026-04-30T20:10:00.000Z', []],
  ['demo-10q-2026q2', '10-Q', '2026-07-30T20:10:00.000Z', []],
  ['demo-8k-2026q3', '8-K', '2026-10-29T20:05:00.000Z', ['2.02', '9.01']],
  ['demo-10q-2026q3', '10-Q', '2026-10-29T20:12:00.000Z', []],
  ['demo-8k-officer', '8-K', '2026-11-12T21:30:00.000Z', ['5.02']],
  ['demo-form4-1', '4', '2026-11-03T22:00:00.000Z', []],
  ['demo-form4-2', '4', '2026-11-16T22:00:00.000Z', []],
].map(([accession, form, acceptedAt, items]) => ({
  accession: accession as string,
  form: form as string,
  filingDate: (acceptedAt as string).slice(0, 10),
  acceptedAt: acceptedAt as string,
  items: items as string[],
}));

const formOf = (accession: string) => filings.find((filing) => filing.accession === accession)!.form;

function rows(value: (period: SyntheticPeriod) => number, instant = false) {
  return periods.map((period) => ({
    ...(instant ? {} : { start: period.start }),
    end: period.end,
    val: value(period),
    accn: period.accession,
    form: formOf(period.accession),
    filed: filings.find((filing) => filing.accession === period.accession)!.filingDate,
  }));
}

const usd = (value: (period: SyntheticPeriod) => number, instant = false) => ({
  units: { USD: rows((period) => value(period) * million, instant) },
});

/** Balance sheets grow with revenue: cash, debt, assets and equity at each period end. */
const balance = (share: number) => usd((period) => Math.round(balanceBase(period.end) * share), true);

const facts: CompanyFacts = {
  cik: 0,
  entityName: 'Acme Robotics Corp (synthetic)',
  facts: {
    'us-gaap': {
      Revenues: usd((period) => period.revenue),
      GrossProfit: usd((period) => period.grossProfit),
      OperatingIncomeLoss: usd((period) => period.operatingIncome),
      NetIncomeLoss: usd((period) => period.netIncome),
      EarningsPerShareDiluted: { units: { 'USD/shares': rows((period) => period.eps) } },
      NetCashProvidedByUsedInOperatingActivities: usd((period) => period.operatingCashFlow),
      PaymentsToAcquirePropertyPlantAndEquipment: usd((period) => period.capex),
      CashAndCashEquivalentsAtCarryingValue: balance(0.21),
      LongTermDebt: balance(0.3),
      Assets: balance(1.6),
      StockholdersEquity: balance(0.62),
      WeightedAverageNumberOfDilutedSharesOutstanding: {
        units: { shares: rows((period) => period.shares * million) },
      },
    },
    dei: { EntityCommonStockSharesOutstanding: { units: { shares: rows(() => 271 * million, true) } } },
  },
};

export function demoFundamentals(
  ticker: string,
  asOfClose: string,
  asTradedClose: number | null,
): Fundamentals | undefined {
  if (ticker !== 'ACME') return undefined;
  const built = buildFundamentals({ facts, filings, close: asOfClose, splits: [], asTradedClose });
  return { ...built, vendor: demoFundamentalsVendor, vendorLabel: demoFundamentalsLabel };
}

/** The demo's fundamentals source: ACME only, no request. */
export const demoFundamentalsSource: MarketSource = {
  vendor: demoFundamentalsVendor,
  label: demoFundamentalsLabel,
  fundamentals: async (request) => demoFundamentals(request.ticker, request.asOfClose, request.asTradedClose),
};
