import type { Decision, GuardrailFinding } from '../../src/result/types.js';
import type { MarketSnapshot } from '../../src/market/types.js';
import { makeSnapshot } from './market.js';

/**
 * A trader's battery: decisions a desk would send back, each with the finding it must
 * get (rule, severity, the numbers in its message), and decisions a desk would sign,
 * which must get no warning or error. The default limits throughout.
 */

interface Market {
  last: number;
  atr: number | null;
  high: number;
  low: number;
  /** The quote's time; the run's clock is Friday 2026-11-27 16:00 New York. */
  quoteTime?: string;
}

function snapshot({ last, atr, high, low, quoteTime = '2026-11-27T21:00:00.000Z' }: Market): MarketSnapshot {
  const base = makeSnapshot('ACME');
  return {
    ...base,
    quote: { ...base.quote, price: last, priceTime: quoteTime, fiftyTwoWeekHigh: high, fiftyTwoWeekLow: low },
    indicators: { ...base.indicators, lastClose: last, atr14: atr, high52w: high, low52w: low },
  };
}

/** A $50 stock, ATR 1.20; a $270 stock, ATR 6; the shared $100 stock, ATR 2.50; a $5 stock and a $900 one. */
const fifty = snapshot({ last: 50, atr: 1.2, high: 60, low: 38 });
const mega = snapshot({ last: 270, atr: 6, high: 300, low: 180 });
const hundred = snapshot({ last: 100, atr: 2.5, high: 120, low: 70 });
const penny = snapshot({ last: 5, atr: 0.22, high: 6.5, low: 3.1 });
const heavy = snapshot({ last: 900, atr: 21, high: 960, low: 610 });
const ipo = snapshot({ last: 40, atr: null, high: 48, low: 30 });

const base: Decision = {
  action: 'BUY',
  conviction: 70,
  timeHorizon: '4 weeks',
  positionSizePct: 5,
  orderType: 'limit',
  entry: 99,
  stopLoss: 94,
  takeProfit: 110,
  rationale: 'r',
  keyRisks: [],
  dissent: null,
};
const buy = (change: Partial<Decision>): Decision => ({ ...base, ...change });
const sell = (change: Partial<Decision>): Decision => ({ ...base, action: 'SELL', ...change });
const hold = (change: Partial<Decision>): Decision => ({
  ...base,
  action: 'HOLD',
  positionSizePct: 0,
  orderType: 'market',
  entry: null,
  stopLoss: null,
  takeProfit: null,
  ...change,
});

export interface Bad {
  name: string;
  decision: Decision;
  market: MarketSnapshot | null;
  rule: string;
  severity: GuardrailFinding['severity'];
  /** Every one of these must appear in the finding's message: the numbers it names. */
  says: RegExp;
}

export const bad: Bad[] = [
  {
    name: 'a 5-cent stop on a stock whose ATR is 1.20',
    decision: buy({ entry: 49.8, stopLoss: 49.75, takeProfit: 52.5 }),
    market: fifty,
    rule: 'stop-tight',
    severity: 'error',
    says: /stop 49\.75 is 0\.04 ATR below the entry 49\.80 \(min 0\.25 ATR\)/,
  },
  {
    name: 'a stop 8 ATR away',
    decision: buy({ entry: 99, stopLoss: 79, takeProfit: 140, timeHorizon: '3 months', positionSizePct: 2 }),
    market: hundred,
    rule: 'stop-wide',
    severity: 'warning',
    says: /stop 79 is 8\.00 ATR below the entry 99 \(max 6 ATR\)/,
  },
  {
    name: 'a target 30 ATR away in "1–2 weeks"',
    decision: buy({ entry: 99, stopLoss: 94, takeProfit: 174, timeHorizon: '1–2 weeks' }),
    market: hundred,
    rule: 'target-reach',
    severity: 'warning',
    says: /take-profit 174 is 30\.00 ATR from the entry 99; over "1–2 weeks" \(10 sessions\) at most 9\.49 ATR/,
  },
  {
    name: 'a short target −96 %',
    decision: sell({ entry: 101, stopLoss: 106, takeProfit: 4, timeHorizon: '2–6 weeks' }),
    market: hundred,
    rule: 'target-reach',
    severity: 'warning',
    says: /take-profit 4 is 38\.80 ATR from the entry 101/,
  },
  {
    name: 'a short target −96 % over a year (the 52-week low catches it)',
    decision: sell({ entry: 101, stopLoss: 106, takeProfit: 4, timeHorizon: '12 months' }),
    market: hundred,
    rule: 'target-range',
    severity: 'warning',
    says: /take-profit 4 is 94\.3 % below the 52-week low 70/,
  },
  {
    name: 'a BUY without a take-profit',
    decision: buy({ takeProfit: null }),
    market: hundred,
    rule: 'target-missing',
    severity: 'warning',
    says: /BUY without a take-profit/,
  },
  {
    name: 'a SELL without a take-profit',
    decision: sell({ entry: 101, stopLoss: 106, takeProfit: null }),
    market: hundred,
    rule: 'target-missing',
    severity: 'warning',
    says: /SELL without a take-profit/,
  },
  {
    name: 'a market BUY "at 262" with the last close at 270: reward/risk 6 stated, 0.9 at the fill',
    decision: buy({ orderType: 'market', entry: 262, stopLoss: 259.02, takeProfit: 279.88, timeHorizon: '2–4 weeks' }),
    market: mega,
    rule: 'reward-risk',
    severity: 'warning',
    says: /reward\/risk is 0\.90 at the fill price 270 \(6\.00 at the stated entry 262\), below 1/,
  },
  {
    name: 'the same market BUY: its stated entry misstates the fill',
    decision: buy({ orderType: 'market', entry: 262, stopLoss: 259.02, takeProfit: 279.88, timeHorizon: '2–4 weeks' }),
    market: mega,
    rule: 'market-entry',
    severity: 'warning',
    says: /last price 270, not the stated entry 262 \(1\.33 ATR away\)/,
  },
  {
    name: 'a BUY limit above the market whose stop sits above the last price',
    decision: buy({ entry: 104, stopLoss: 101, takeProfit: 112 }),
    market: hundred,
    rule: 'stop-side',
    severity: 'error',
    says: /stop-loss 101 is at or above the fill price 100/,
  },
  {
    name: 'a SELL limit below the market whose stop sits below the last price',
    decision: sell({ entry: 96, stopLoss: 99, takeProfit: 88 }),
    market: hundred,
    rule: 'stop-side',
    severity: 'error',
    says: /stop-loss 99 is at or below the fill price 100/,
  },
  {
    name: 'a BUY stop above the entry',
    decision: buy({ entry: 99, stopLoss: 101, takeProfit: 110 }),
    market: hundred,
    rule: 'stop-side',
    severity: 'error',
    says: /stop-loss 101 is at or above the entry 99/,
  },
  {
    name: 'a SELL target above the entry',
    decision: sell({ entry: 101, stopLoss: 106, takeProfit: 103 }),
    market: hundred,
    rule: 'target-side',
    severity: 'error',
    says: /take-profit 103 is at or above the entry 101/,
  },
  {
    name: '10 % of the portfolio with a 40 % stop',
    decision: buy({
      orderType: 'market',
      entry: 100,
      positionSizePct: 10,
      conviction: 80,
      stopLoss: 60,
      takeProfit: 160,
      timeHorizon: '1 year',
    }),
    market: hundred,
    rule: 'risk-per-trade',
    severity: 'error',
    says: /risks 4\.00 % of the portfolio \(size 10 % × stop 40\.0 % from 100; limit 2 %\)/,
  },
  {
    name: 'a short of 8 % with a 30 % stop',
    decision: sell({
      orderType: 'market',
      entry: 100,
      positionSizePct: 8,
      conviction: 80,
      stopLoss: 130,
      takeProfit: 75,
      timeHorizon: '6 months',
    }),
    market: hundred,
    rule: 'risk-per-trade',
    severity: 'error',
    says: /risks 2\.40 % of the portfolio \(size 8 % × stop 30\.0 % from 100; limit 2 %\)/,
  },
  {
    name: 'a position of 25 %',
    decision: buy({ positionSizePct: 25, conviction: 95, stopLoss: 96 }),
    market: hundred,
    rule: 'position-size',
    severity: 'error',
    says: /position size 25 % exceeds the 10 % limit/,
  },
  {
    name: 'a BUY with size 0',
    decision: buy({ positionSizePct: 0 }),
    market: hundred,
    rule: 'size-zero',
    severity: 'warning',
    says: /BUY with a position size of 0 %/,
  },
  {
    name: 'a HOLD with a size',
    decision: hold({ positionSizePct: 4 }),
    market: hundred,
    rule: 'hold-size',
    severity: 'warning',
    says: /HOLD with a position size of 4 %/,
  },
  {
    name: 'a conviction of 8 at the maximum size',
    decision: buy({ positionSizePct: 10, conviction: 8, stopLoss: 95 }),
    market: hundred,
    rule: 'conviction-size',
    severity: 'warning',
    says: /conviction 8 is low for a 10 % position \(at least 50 expected/,
  },
  {
    name: 'a negative entry',
    decision: buy({ entry: -99 }),
    market: hundred,
    rule: 'invalid-decision',
    severity: 'error',
    says: /^entry: Too small: .* \(sent -99\)$/,
  },
  {
    name: 'a take-profit of 1e308',
    decision: buy({ takeProfit: 1e308 }),
    market: hundred,
    rule: 'invalid-decision',
    severity: 'error',
    says: /^takeProfit: Too big: .* \(sent 1e\+308\)$/,
  },
  {
    name: 'an infinite stop',
    decision: buy({ stopLoss: Number.POSITIVE_INFINITY }),
    market: hundred,
    rule: 'invalid-decision',
    severity: 'error',
    says: /^stopLoss: .* \(sent Infinity\)$/,
  },
  {
    name: 'size −5',
    decision: buy({ positionSizePct: -5 }),
    market: hundred,
    rule: 'invalid-decision',
    severity: 'error',
    says: /^positionSizePct: Too small: .* \(sent -5\)$/,
  },
  {
    name: 'conviction 140',
    decision: buy({ conviction: 140 }),
    market: hundred,
    rule: 'invalid-decision',
    severity: 'error',
    says: /^conviction: Too big: .* \(sent 140\)$/,
  },
  {
    name: 'a NaN conviction',
    decision: buy({ conviction: Number.NaN }),
    market: hundred,
    rule: 'invalid-decision',
    severity: 'error',
    says: /^conviction: .* \(sent NaN\)$/,
  },
  {
    name: 'an action the schema does not know',
    decision: buy({ action: 'STRONG BUY' as Decision['action'] }),
    market: hundred,
    rule: 'invalid-decision',
    severity: 'error',
    says: /^action: .* \(sent "STRONG BUY"\)$/,
  },
  {
    name: 'a BUY with no market data',
    decision: buy({}),
    market: null,
    rule: 'unverifiable',
    severity: 'warning',
    says: /stopLoss 94 cannot be checked against the market/,
  },
  {
    name: "a HOLD's invented levels with no market data",
    decision: hold({ entry: 140, stopLoss: 150 }),
    market: null,
    rule: 'unverifiable',
    severity: 'warning',
    says: /entry 140 cannot be checked/,
  },
  {
    name: 'a market SELL with no stated entry and no market data: its stop is unverifiable too',
    decision: sell({ orderType: 'market', entry: null, stopLoss: 106, takeProfit: 90 }),
    market: null,
    rule: 'unverifiable',
    severity: 'warning',
    says: /stopLoss 106 cannot be checked against the market/,
  },
  {
    name: 'a BUY limit 12 ATR above the market (set from another price): it caps nothing',
    decision: buy({ entry: 130, stopLoss: 95, takeProfit: 110 }),
    market: hundred,
    rule: 'entry-distance',
    severity: 'warning',
    says: /the BUY limit 130 is 12\.00 ATR above the last price 100 \(limit 3 ATR\): it fills at once, at any price up to 130/,
  },
  {
    name: 'a SELL limit 4 ATR below the market',
    decision: sell({ entry: 90, stopLoss: 105, takeProfit: 88 }),
    market: hundred,
    rule: 'entry-distance',
    severity: 'warning',
    says: /the SELL limit 90 is 4\.00 ATR below the last price 100 \(limit 3 ATR\): it fills at once, at any price down to 90/,
  },
  {
    name: 'daily bars a week old under a fresh quote: the last close the levels are judged against is stale',
    decision: buy({}),
    market: { ...hundred, indicators: { ...hundred.indicators, asOfBar: '2026-11-20' } },
    rule: 'stale-bars',
    severity: 'warning',
    says: /the last close 100 the levels are judged against is from 2026-11-20, older than the last session \(2026-11-27\)/,
  },
  {
    name: 'a BUY stop 0.3 % under the entry with ATR missing (a recent IPO)',
    decision: buy({ entry: 39.5, stopLoss: 39.4, takeProfit: 43 }),
    market: ipo,
    rule: 'stop-tight',
    severity: 'error',
    says: /stop 39\.40 is 0\.25 % below the entry 39\.50 \(min 0\.63 %\)/,
  },
  {
    name: 'a SELL stop 25 % above the entry with ATR missing',
    decision: sell({
      entry: 40,
      orderType: 'market',
      stopLoss: 50,
      takeProfit: 30,
      positionSizePct: 2,
      timeHorizon: '3 months',
    }),
    market: ipo,
    rule: 'stop-wide',
    severity: 'warning',
    says: /stop 50 is 25\.00 % above the entry 40 \(max 15 %\)/,
  },
  {
    name: 'a resting limit 5 ATR under the market',
    decision: buy({ entry: 87.5, stopLoss: 83, takeProfit: 96 }),
    market: hundred,
    rule: 'entry-distance',
    severity: 'error',
    says: /entry 87\.50 is 5\.00 ATR from the last price 100 \(limit 3 ATR\)/,
  },
  {
    name: "a stale quote (Tuesday's, on Friday evening)",
    decision: buy({}),
    market: snapshot({ last: 100, atr: 2.5, high: 120, low: 70, quoteTime: '2026-11-24T21:00:00.000Z' }),
    rule: 'stale-quote',
    severity: 'warning',
    says: /the quote is from 2026-11-24, older than the last session \(2026-11-27\)/,
  },
  {
    name: 'a limit BUY without an entry',
    decision: buy({ entry: null }),
    market: hundred,
    rule: 'entry-missing',
    severity: 'error',
    says: /BUY limit order without an entry price/,
  },
  {
    name: 'a SELL without a stop',
    decision: sell({ entry: 101, stopLoss: null, takeProfit: 92 }),
    market: hundred,
    rule: 'stop-missing',
    severity: 'error',
    says: /SELL without a stop-loss/,
  },
];

/** Decisions a desk would sign: textbook longs and shorts, market and limit, cheap and dear stocks, short and long horizons, HOLDs. */
export const sane: Array<{ name: string; decision: Decision; market: MarketSnapshot }> = [
  { name: 'a textbook limit long', decision: buy({}), market: hundred },
  {
    name: 'a textbook limit short above the market',
    decision: sell({ entry: 101, stopLoss: 106, takeProfit: 90 }),
    market: hundred,
  },
  {
    name: 'a market long at the last close',
    decision: buy({ orderType: 'market', entry: 100, stopLoss: 95, takeProfit: 110 }),
    market: hundred,
  },
  {
    name: 'a market long stated 40 cents off the close',
    decision: buy({ orderType: 'market', entry: 100.4, stopLoss: 95, takeProfit: 110 }),
    market: hundred,
  },
  {
    name: 'a marketable BUY limit a little above the market',
    decision: buy({ entry: 100.5, stopLoss: 95, takeProfit: 110 }),
    market: hundred,
  },
  {
    name: 'a market short',
    decision: sell({ orderType: 'market', entry: 100, stopLoss: 105, takeProfit: 91 }),
    market: hundred,
  },
  {
    name: 'a $5 stock, limit long, 2–4 weeks',
    decision: buy({
      entry: 4.9,
      stopLoss: 4.5,
      takeProfit: 5.7,
      timeHorizon: '2–4 weeks',
      positionSizePct: 4,
      conviction: 60,
    }),
    market: penny,
  },
  {
    name: 'a $5 stock, market short, 1–2 weeks',
    decision: sell({
      orderType: 'market',
      entry: 5,
      stopLoss: 5.45,
      takeProfit: 4.4,
      timeHorizon: '1–2 weeks',
      positionSizePct: 3,
      conviction: 55,
    }),
    market: penny,
  },
  {
    name: 'a $900 stock, limit long, next quarter',
    decision: buy({
      entry: 890,
      stopLoss: 848,
      takeProfit: 990,
      timeHorizon: 'next quarter',
      positionSizePct: 6,
      conviction: 65,
    }),
    market: heavy,
  },
  {
    name: 'a $900 stock, market long, 3 months',
    decision: buy({
      orderType: 'market',
      entry: 900,
      stopLoss: 855,
      takeProfit: 1010,
      timeHorizon: '3 months',
      positionSizePct: 8,
      conviction: 80,
    }),
    market: heavy,
  },
  {
    name: 'a $900 stock, limit short, 6–8 weeks',
    decision: sell({
      entry: 910,
      stopLoss: 955,
      takeProfit: 820,
      timeHorizon: '6–8 weeks',
      positionSizePct: 4,
      conviction: 60,
    }),
    market: heavy,
  },
  {
    name: 'a $270 stock, weekly swing long',
    decision: buy({
      orderType: 'market',
      entry: 270,
      stopLoss: 261,
      takeProfit: 283,
      timeHorizon: '1 week',
      positionSizePct: 5,
      conviction: 62,
    }),
    market: mega,
  },
  {
    name: 'a $270 stock, quarterly short',
    decision: sell({
      entry: 275,
      stopLoss: 290,
      takeProfit: 240,
      timeHorizon: '1 quarter',
      positionSizePct: 5,
      conviction: 60,
    }),
    market: mega,
  },
  {
    name: 'a $50 stock, day trade',
    decision: buy({
      orderType: 'market',
      entry: 50,
      stopLoss: 49.4,
      takeProfit: 51,
      timeHorizon: 'intraday',
      positionSizePct: 3,
      conviction: 50,
    }),
    market: fifty,
  },
  {
    name: 'a $50 stock, 6 to 12 months',
    decision: buy({
      entry: 49,
      stopLoss: 44,
      takeProfit: 62,
      timeHorizon: '6 to 12 months',
      positionSizePct: 5,
      conviction: 70,
    }),
    market: fifty,
  },
  {
    name: 'the maximum size at the minimum conviction, risk 1 %',
    decision: buy({ positionSizePct: 10, conviction: 50, entry: 99, stopLoss: 94, takeProfit: 110 }),
    market: hundred,
  },
  {
    name: 'a recent IPO without ATR, percent stops',
    decision: buy({ entry: 39.5, stopLoss: 37, takeProfit: 44, positionSizePct: 3, conviction: 55 }),
    market: ipo,
  },
  { name: 'a HOLD with nothing', decision: hold({ conviction: 40 }), market: hundred },
  { name: 'a HOLD with watch levels', decision: hold({ entry: 95, stopLoss: 90, takeProfit: 110 }), market: hundred },
  { name: 'a HOLD on a $900 stock', decision: hold({ timeHorizon: '3 months' }), market: heavy },
];
