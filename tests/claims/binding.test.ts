import { describe, expect, it } from 'vitest';
import { checkClaims, claimFindings } from '../../src/claims/index.js';
import { extractFigures } from '../../src/claims/extract.js';
import { quantities } from '../../src/claims/quantities.js';
import { claimsDecision, claimsFundamentals, claimsSnapshot } from '../../testkit/claims-world.js';

/** The binding table: a phrase, and the quantity its figure is bound to. */
const names: Array<[phrase: string, quantity: string]> = [
  ['RSI(14) at 53.6', 'rsi'],
  ['the relative strength index at 53.6', 'rsi'],
  ['ATR(14) 4.57 USD', 'atr'],
  ['average true range of 4.57', 'atr'],
  ['SMA20 139.97', 'sma20'],
  ['the 20-day moving average at 139.97', 'sma20'],
  ['the 50-day at 138.95', 'sma50'],
  ['50-DMA 138.95', 'sma50'],
  ['SMA 200 of 128.04', 'sma200'],
  ['the 200-day line near 128.04', 'sma200'],
  ['the 52-week high of 162.15', 'high52w'],
  ['the one-year low of 86.92', 'low52w'],
  ['last close 141.85', 'price'],
  ['closed at 141.85', 'price'],
  ['support at 132.02', 'support'],
  ['resistance near 146.76', 'resistance'],
  ['beta 1.34', 'beta'],
  ['a trailing P/E of 31.38', 'pe'],
  ['forward P/E 26.71', 'forwardPE'],
  ['price-to-sales of 0.84', 'priceToSales'],
  ['P/B 5.21', 'priceToBook'],
  ['FCF yield of 12.4 %', 'fcfYield'],
  ['market cap of 38.44 B', 'marketCap'],
  ['20-day volatility 29.40 %', 'volatility20d'],
  ['1-year volatility 29.99 %', 'volatility1y'],
  ['volatility 29.40 % over 20 days', 'volatility20d'],
  ['volatility of 29.99 % over the year', 'volatility1y'],
  ['max drawdown -27.11 %', 'drawdown'],
  ['the 1-month return of +6.33 %', 'return1m'],
  ['the stock is up 6.33 % over the past month', 'return1m'],
  ['shares fell 6.2 % over three months', 'return3m'],
  ['the 12-month return of +47.4 %', 'return1y'],
  ['dividend yield 0.51 %', 'dividendYield'],
  ['debt/equity 42.7 %', 'debtToEquity'],
  ['revenue of $12.40 B', 'revenue'],
  ['revenue grew 18.6 %', 'revenueGrowth'],
  ['18.6 % revenue growth', 'revenueGrowth'],
  ['net income rose 27.5 %', 'netIncomeGrowth'],
  ['gross margin of 45.0 %', 'grossMargin'],
  ['operating margin 17.0 %', 'operatingMargin'],
  ['net margin 14.2 %', 'netMargin'],
  ['diluted EPS of $2.30', 'epsDiluted'],
  ['free cash flow of $1.52 B', 'freeCashFlow'],
  ['the consensus target of $162.00', 'analystTarget'],
  ['relative volume 0.97', 'volumeRatio'],
  ['average volume 3.09 M', 'volume'],
  ['a limit at 139.57', 'entry'],
  ['stop-loss 130.43', 'stop'],
  ['take-profit 155.57', 'target'],
  ['reward-to-risk 1.75', 'rewardRisk'],
  ['risk per trade 0.26 %', 'riskPerTrade'],
  ['risk per share $9.14', 'riskPerShare'],
  ['position size 4 %', 'positionSize'],
  ['conviction 64', 'conviction'],
  ['the SMA200, which sits at 138.95', 'sma200'],
  ['the 200d MA at 128.04', 'sma200'],
  ['holds above the 50-day at 138.95', 'sma50'],
  ['the 50-day moving average (138.95)', 'sma50'],
  ['RSI (53.6)', 'rsi'],
  ['RSI 14 reads 53.6', 'rsi'],
  ['ATR (4.57)', 'atr'],
  ['20d vol is 29.40 %', 'volatility20d'],
  ['1y vol of 29.99 %', 'volatility1y'],
  ['Volatility (1y): 29.99 %', 'volatility1y'],
  ['annualised volatility over the last year is 29.99 %', 'volatility1y'],
  ['over the past six months the stock gained 47.39 %', 'return6m'],
  ['in the last week the stock rose 1.10 %', 'return1w'],
  ['the stock is up 2.09 % on the day', 'dayChange'],
  ['the distance from the 52-week high is -12.52 %', 'distanceFromHigh52w'],
  ['the gap to the 52-week low of 63.20 %', 'distanceFromLow52w'],
  ['the distance from the SMA20 is 1.34 %', 'distanceFromSma20'],
  ['the distance from the SMA50 is 2.09 %', 'distanceFromSma50'],
  ['the gap to the 200-day average of 10.78 %', 'distanceFromSma200'],
];

describe('the binding table', () => {
  it.each(names)('%s → %s', (phrase, quantity) => {
    const [figure] = extractFigures(phrase);
    expect(figure?.quantity?.quantity.id).toBe(quantity);
  });

  it('names every quantity of the table once, with at least one synonym, and the table binds each of them', () => {
    const ids = quantities.map((quantity) => quantity.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const quantity of quantities) expect(quantity.synonyms.length, quantity.id).toBeGreaterThan(0);
    const bound = new Set(names.map(([, id]) => id));
    const general = ['volatility', 'return', 'dayChange'];
    const unnamed = quantities
      .filter((quantity) => !bound.has(quantity.id) && !general.includes(quantity.id))
      .map((quantity) => quantity.id)
      // The fundamentals line items and their growth are generated from one list of concepts.
      .filter(
        (id) =>
          !/^(?:grossProfit|operatingIncome|netIncome|epsDiluted|operatingCashFlow|capex|freeCashFlow|cash|totalDebt|totalAssets|equity|sharesDiluted|revenue)(?:Growth)?$/.test(
            id,
          ),
      );
    expect(unnamed).toEqual(['return1d', 'fcfMargin']);
  });

  it('a distance binds to the level named after the comparison, with its direction and what is measured', () => {
    const [figure] = extractFigures('The close is 3.2 % below the 52-week high.');
    expect(figure?.quantity?.distance).toMatchObject({ direction: -1 });
    expect(figure?.quantity?.distance?.reference.id).toBe('high52w');
    expect(figure?.quantity?.distance?.subject?.id).toBe('price');
    const [, gap] = extractFigures('A limit at 139.56, 2.29 USD under the close.');
    expect(gap?.quantity?.distance).toMatchObject({ subjectValue: 139.56, direction: -1 });
  });
});

function checked(text: string, where: 'desk' | 'decision' = 'desk') {
  const { claims } = checkClaims({
    market: claimsSnapshot,
    plan: null,
    reports: where === 'desk' ? [{ agent: 'quant', text }] : [],
    decision: { ...claimsDecision, rationale: where === 'decision' ? text : '', keyRisks: [], dissent: null },
  });
  return claims.filter((claim) => claim.field === (where === 'desk' ? 'report' : 'decision.rationale'));
}

describe('figures checked against the quantity they name', () => {
  it('"3.2 % below the 52-week high" is no longer verified by an unrelated 3.2 % (issue 47, item 20)', () => {
    const [claim] = checked('The close is 3.2 % below the 52-week high.');
    expect(claim).toMatchObject({
      status: 'contradicted',
      source: expect.stringContaining('high52w'),
      sourceText: '12.52 %',
    });
    expect(checked('The close is 12.5 % below the 52-week high.')[0]?.status).toBe('verified');
  });

  it('a crossed value is contradicted and the finding names both quantities', () => {
    const claims = checked('The SMA200, which sits at 138.95, still rises.', 'decision');
    expect(claims[0]).toMatchObject({
      status: 'contradicted',
      source: 'snapshot.indicators.sma200',
      sourceText: '128.04',
      crossed: 'SMA50',
      crossedSource: 'snapshot.indicators.sma50',
    });
    const [finding] = claimFindings(claims);
    expect(finding?.message).toBe(
      "the decision's rationale says SMA200 138.95 where the data has 128.04 (snapshot.indicators.sma200); 138.95 is the SMA50 (snapshot.indicators.sma50)",
    );
    expect(checked('20-day volatility 29.99 %.')[0]).toMatchObject({ crossed: '1-year volatility' });
    expect(checked('Price sits 2.09 % above the 200-day average.')[0]).toMatchObject({
      crossed: 'the distance from the SMA50',
    });
  });

  it('quotes the truth at the data’s own precision: 53.6, not 54', () => {
    expect(checked('RSI 71 is overbought.')[0]).toMatchObject({ status: 'contradicted', sourceText: '53.6' });
    expect(checked('The close of $150 is firm.')[0]).toMatchObject({ sourceText: '$141.85' });
  });

  it('marks distances from the decision’s own levels derived, with the formula', () => {
    const claims = checked(
      'A limit at 139.57, 2.28 USD under the close; a stop 2.0 ATR away; risk per trade 0.26 %; reward/risk 1.75.',
      'decision',
    );
    expect(claims.map((claim) => [claim.text, claim.status, claim.source])).toEqual([
      ['139.57', 'verified', 'decision.entry'],
      ['2.28 USD', 'derived', 'decision.entry − snapshot.indicators.lastClose'],
      ['2.0 ATR', 'derived', '(decision.stopLoss − decision.entry) ÷ ATR'],
      ['0.26 %', 'derived', 'positionSizePct × |decision.entry − stopLoss| ÷ decision.entry'],
      ['1.75', 'derived', '(takeProfit − decision.entry) ÷ (decision.entry − stopLoss)'],
    ]);
  });
});

describe('fundamentals as sources, each with its period', () => {
  const withoutFundamentals = { ...claimsSnapshot, fundamentals: undefined };

  it('binds growth to the period the text names, else the latest', () => {
    expect(checked('Revenue grew 18.6 % y/y in the latest quarter.')[0]).toMatchObject({
      status: 'verified',
      source: 'fundamentals[Q ending 2026-09-27].revenueGrowthYoY',
    });
    expect(checked('Revenue grew 15.2 % in the third fiscal quarter.')[0]?.status).toBe('verified');
    expect(checked('Revenue grew 18.6 % in the third fiscal quarter.')[0]).toMatchObject({
      status: 'contradicted',
      crossed: 'revenue growth (Q ending 2026-09-27)',
    });
    expect(checked('Fiscal 2025 revenue was $45.9 B.')[0]).toMatchObject({
      status: 'contradicted',
      sourceText: '$39.20 B',
      crossed: 'revenue (FY ending 2026-09-27)',
    });
  });

  it('derives margins and growth the periods do not carry, with the formula', () => {
    expect(checked('Net income rose 27.5 % in fiscal 2026.')[0]).toMatchObject({
      status: 'derived',
      source:
        '(fundamentals[FY ending 2026-09-27].netIncome − fundamentals[FY ending 2025-09-28].netIncome) ÷ |fundamentals[FY ending 2025-09-28].netIncome|',
    });
    expect(checked('Sequentially, revenue grew 6.7 % q/q.')[0]?.status).toBe('derived');
    expect(checked('The free-cash-flow margin was 12.3 % last quarter.')[0]).toMatchObject({
      status: 'derived',
      source: 'fundamentals[Q ending 2026-09-27].freeCashFlow ÷ fundamentals[Q ending 2026-09-27].revenue',
    });
  });

  it('values, valuation and filing dates are sources; without fundamentals, revenue claims are unsourced', () => {
    expect(checked('Price-to-sales of 0.84; filed its 10-K on 2026-11-06.').map((claim) => claim.source)).toEqual([
      'fundamentals.valuation.priceToSales',
      'fundamentals.filings[0].acceptedAt (10-K)',
    ]);
    const { claims } = checkClaims({
      market: withoutFundamentals,
      plan: null,
      reports: [{ agent: 'quant', text: 'Revenue of $12.40 B in the latest quarter.' }],
      decision: null,
    });
    expect(claims[0]?.status).toBe('unsourced');
    expect(claimsFundamentals.quarters).toHaveLength(4);
  });
});
