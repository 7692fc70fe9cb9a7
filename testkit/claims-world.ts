/**
 * The run the claims case set is written against (testkit/claims-cases.ts): a realistic
 * snapshot of a fictional robot maker, a BUY limit decision and a year of filed fundamentals
 * with a September fiscal year. Every number an analyst could quote is listed in the comments.
 */
import type { Fundamentals, FundamentalFigure, FundamentalPeriod } from '../src/market/fundamentals-types.js';
import type { MarketSnapshot } from '../src/market/types.js';

/**
 * Derived from the decision and the snapshot (close 141.85, ATR 4.5712):
 * entry 139.57 is 2.28 USD / 1.61 % of the close / 0.50 ATR under it; the stop 130.43 is 9.14
 * USD / 6.55 % / 2.0 ATR under the entry, 11.42 USD / 8.05 % / 2.50 ATR under the close; the
 * target 155.57 is 16.00 USD / 11.46 % / 3.5 ATR over the entry, 13.72 USD / 9.67 % / 3.00 ATR
 * over the close; reward/risk 1.75 at the entry, 1.20 at the close; risk per trade 4 % × 6.55 %
 * = 0.26 % of the portfolio.
 */
export const claimsDecision = {
  action: 'BUY',
  orderType: 'limit',
  entry: 139.57,
  stopLoss: 130.43,
  takeProfit: 155.57,
  positionSizePct: 4,
  conviction: 64,
};

const figure = (
  concept: FundamentalFigure['concept'],
  value: number,
  period: { start?: string; end: string },
  unit: FundamentalFigure['unit'] = 'currency',
): FundamentalFigure => ({
  concept,
  value,
  unit,
  ...(period.start ? { periodStart: period.start } : {}),
  periodEnd: period.end,
  form: '10-Q',
  acceptedAt: '2026-11-06T21:05:00Z',
});

/** One period: revenue, gross profit, operating income, net income, diluted EPS, free cash flow. */
function period(
  kind: 'quarter' | 'year',
  start: string,
  end: string,
  values: [number, number, number, number, number, number],
  growth: number | null,
): FundamentalPeriod {
  const [revenue, gross, operating, net, eps, fcf] = values;
  const dates = { start, end };
  return {
    kind,
    periodStart: start,
    periodEnd: end,
    label: `${kind === 'quarter' ? 'Q' : 'FY'} ending ${end}`,
    figures: [
      figure('revenue', revenue, dates),
      figure('grossProfit', gross, dates),
      figure('operatingIncome', operating, dates),
      figure('netIncome', net, dates),
      figure('epsDiluted', eps, dates, 'per-share'),
      figure('freeCashFlow', fcf, dates),
      figure('cash', kind === 'quarter' ? 6.12e9 : 5.4e9, { end }),
      figure('totalDebt', 4.05e9, { end }),
    ],
    revenueGrowthYoY: growth,
    grossMargin: gross / revenue,
    operatingMargin: operating / revenue,
  };
}

/**
 * Quarters (newest first): revenue 12.40 B (+18.6 % y/y), 11.62 B (+15.2 %), 10.95 B (+12.1 %),
 * 10.93 B (+9.4 %). Gross margin 45.0 %, 44.1 %, 43.2 %, 42.8 %; operating margin 17.0 %, 15.8 %,
 * 14.6 %, 14.2 %; net income 1.76 B, 1.58 B, 1.41 B, 1.37 B; EPS 2.30, 2.06, 1.84, 1.79; FCF
 * 1.52 B, 1.21 B, 0.98 B, 1.04 B. Revenue q/q +6.7 %.
 * Fiscal years ending September: revenue 45.90 B (+17.1 %), 39.20 B (+18.4 %), 33.11 B;
 * net income 6.12 B (+27.5 %), 4.80 B, 3.95 B; EPS 8.00, 6.28, 5.16.
 */
export const claimsFundamentals: Fundamentals = {
  vendor: 'demo',
  vendorLabel: 'synthetic case data',
  currency: 'USD',
  quarters: [
    period('quarter', '2026-06-29', '2026-09-27', [12.4e9, 5.58e9, 2.108e9, 1.76e9, 2.3, 1.52e9], 0.186),
    period('quarter', '2026-03-30', '2026-06-28', [11.62e9, 5.124e9, 1.836e9, 1.58e9, 2.06, 1.21e9], 0.152),
    period('quarter', '2025-12-29', '2026-03-29', [10.95e9, 4.73e9, 1.599e9, 1.41e9, 1.84, 0.98e9], 0.121),
    period('quarter', '2025-09-29', '2025-12-28', [10.93e9, 4.678e9, 1.552e9, 1.37e9, 1.79, 1.04e9], 0.094),
  ],
  years: [
    period('year', '2025-09-29', '2026-09-27', [45.9e9, 20.12e9, 7.095e9, 6.12e9, 8.0, 4.75e9], 0.171),
    period('year', '2024-09-30', '2025-09-28', [39.2e9, 16.86e9, 5.6e9, 4.8e9, 6.28, 3.9e9], 0.184),
    period('year', '2023-10-02', '2024-09-29', [33.11e9, 13.9e9, 4.3e9, 3.95e9, 5.16, 3.1e9], null),
  ],
  valuation: [
    { name: 'marketCap', value: 38.44e9, inputs: 'close 141.85 × 271.0 M diluted shares' },
    { name: 'peTrailing', value: 17.73, inputs: 'TTM diluted EPS 8.00 × close 141.85' },
    { name: 'priceToSales', value: 0.84, inputs: 'market cap ÷ TTM revenue 45.90 B' },
    { name: 'priceToBook', value: 5.21, inputs: 'market cap ÷ equity 7.38 B' },
    { name: 'fcfYield', value: 0.1236, inputs: 'TTM FCF 4.75 B ÷ market cap' },
  ],
  filings: [
    { form: '10-K', acceptedAt: '2026-11-06T21:05:00Z' },
    { form: '8-K', acceptedAt: '2026-10-29T20:01:00Z', items: ['2.02 results of operations'] },
  ],
  insiderFilings90d: 7,
  notes: [],
};

/**
 * The snapshot: close 141.85; SMA20 139.97 (+1.34 %), SMA50 138.95 (+2.09 %), SMA200 128.04
 * (+10.79 %); RSI(14) 53.6; ATR(14) 4.57 (3.22 % of the close); volatility 29.40 % (20-day),
 * 29.99 % (1 year); max drawdown -27.11 %; 52-week high 162.15 (close -12.52 %), low 86.92
 * (+63.20 %); returns 1 day +0.84 %, 1 week +0.22 %, 1 month +6.33 %, 3 months -6.18 %,
 * 6 months +28.69 %, 1 year +47.39 %; support 132.02, resistance 146.76; market cap 38.44 B;
 * P/E 31.38 trailing, 26.71 forward; beta 1.34; average volume 3.09 M (20-day 3.05 M, 1 year
 * 3.16 M, ratio 0.97); dividend yield 0.51 %; analyst mean target 162.00; profit margin 14.20 %;
 * revenue growth +18.60 %; debt/equity 42.70 %.
 */
export const claimsSnapshot: MarketSnapshot = {
  symbol: 'ACME',
  asOf: '2026-11-27T21:00:00.000Z',
  identity: {
    symbol: 'ACME',
    name: 'Acme Robotics Corp',
    exchange: 'NasdaqGS',
    currency: 'USD',
    quoteType: 'EQUITY',
    sector: 'Technology',
    industry: 'Industrial Robots',
  },
  quote: {
    price: 141.85,
    priceTime: '2026-11-27T21:00:00.000Z',
    change: 1.18,
    changePercent: 0.84,
    marketCap: 38.44e9,
    trailingPE: 31.38,
    forwardPE: 26.71,
    beta: 1.34,
    fiftyTwoWeekHigh: 162.15,
    fiftyTwoWeekLow: 86.92,
    averageVolume: 3.09e6,
    dividendYield: 0.0051,
    targetMeanPrice: 162,
    recommendation: 'buy',
    profitMargin: 0.142,
    revenueGrowth: 0.186,
    debtToEquity: 42.7,
  },
  bars: [],
  indicators: {
    asOfBar: '2026-11-27',
    lastClose: 141.85,
    returns: { d1: 0.0084, w1: 0.0022, m1: 0.0633, m3: -0.0618, m6: 0.2869, y1: 0.4739 },
    sma20: 139.9712,
    sma50: 138.9468,
    sma200: 128.0421,
    distanceFromSma20: 0.013424,
    distanceFromSma50: 0.020895,
    distanceFromSma200: 0.107838,
    rsi14: 53.6314,
    atr14: 4.5712,
    volatility20d: 0.29404,
    volatility1y: 0.29987,
    maxDrawdown1y: -0.27112,
    high52w: 162.15,
    low52w: 86.92,
    distanceFromHigh52w: -0.125193,
    distanceFromLow52w: 0.631961,
    averageVolume20d: 3.05e6,
    averageVolume1y: 3.16e6,
    volumeRatio: 0.965,
    support: 132.02,
    resistance: 146.76,
  },
  fundamentals: claimsFundamentals,
  text: 'MARKET DATA — ACME (Acme Robotics Corp), as of 2026-11-27\nLast close: 141.85 USD (2026-11-27)\nATR(14): 4.57 USD = 3.22 % of close (2026-11-27)',
  warnings: [],
  source: 'test',
};
