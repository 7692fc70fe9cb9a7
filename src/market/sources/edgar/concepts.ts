/**
 * Which XBRL tags carry each line item, in order of preference. A company changes tags
 * over time (AAPL's revenue: SalesRevenueNet until 2018, Revenues in one 10-K,
 * RevenueFromContractWithCustomerExcludingAssessedTax since 2019), so the tags of one
 * line item form one pool, and a period takes the latest value any of them filed.
 */

export type SeriesName =
  | 'revenue'
  | 'grossProfit'
  | 'operatingIncome'
  | 'netIncome'
  | 'epsDiluted'
  | 'operatingCashFlow'
  | 'capex'
  | 'cash'
  | 'longTermDebt'
  | 'longTermDebtCurrent'
  | 'longTermDebtNoncurrent'
  | 'commercialPaper'
  | 'totalAssets'
  | 'equity'
  | 'sharesDiluted'
  | 'coverShares';

export interface SeriesSpec {
  taxonomy: 'us-gaap' | 'dei';
  /** The XBRL unit: USD, USD/shares or shares. */
  unit: string;
  kind: 'currency' | 'per-share' | 'shares';
  /** A flow over a span (income, cash flow) or a balance at an instant. */
  period: 'duration' | 'instant';
  /** Flows that add up over spans (so a quarter is a year-to-date minus the one before). */
  additive: boolean;
  tags: readonly string[];
}

const flow = (tags: readonly string[]): SeriesSpec => ({
  taxonomy: 'us-gaap',
  unit: 'USD',
  kind: 'currency',
  period: 'duration',
  additive: true,
  tags,
});

const balance = (tags: readonly string[]): SeriesSpec => ({
  taxonomy: 'us-gaap',
  unit: 'USD',
  kind: 'currency',
  period: 'instant',
  additive: false,
  tags,
});

export const seriesSpecs: Readonly<Record<SeriesName, SeriesSpec>> = {
  revenue: flow([
    'RevenueFromContractWithCustomerExcludingAssessedTax',
    'Revenues',
    'SalesRevenueNet',
    'RevenueFromContractWithCustomerIncludingAssessedTax',
    'SalesRevenueGoodsNet',
  ]),
  grossProfit: flow(['GrossProfit']),
  operatingIncome: flow(['OperatingIncomeLoss']),
  netIncome: flow(['NetIncomeLoss', 'ProfitLoss']),
  epsDiluted: {
    taxonomy: 'us-gaap',
    unit: 'USD/shares',
    kind: 'per-share',
    period: 'duration',
    additive: false,
    tags: ['EarningsPerShareDiluted'],
  },
  operatingCashFlow: flow([
    'NetCashProvidedByUsedInOperatingActivities',
    'NetCashProvidedByUsedInOperatingActivitiesContinuingOperations',
  ]),
  capex: flow(['PaymentsToAcquirePropertyPlantAndEquipment', 'PaymentsToAcquireProductiveAssets']),
  cash: balance(['CashAndCashEquivalentsAtCarryingValue']),
  longTermDebt: balance(['LongTermDebt']),
  longTermDebtCurrent: balance(['LongTermDebtCurrent']),
  longTermDebtNoncurrent: balance(['LongTermDebtNoncurrent']),
  commercialPaper: balance(['CommercialPaper']),
  totalAssets: balance(['Assets']),
  equity: balance(['StockholdersEquity']),
  sharesDiluted: {
    taxonomy: 'us-gaap',
    unit: 'shares',
    kind: 'shares',
    period: 'duration',
    additive: false,
    tags: ['WeightedAverageNumberOfDilutedSharesOutstanding'],
  },
  // The cover page's count of shares outstanding: the market cap's share count.
  coverShares: {
    taxonomy: 'dei',
    unit: 'shares',
    kind: 'shares',
    period: 'instant',
    additive: false,
    tags: ['EntityCommonStockSharesOutstanding'],
  },
};

export const seriesNames = Object.keys(seriesSpecs) as SeriesName[];
