import { describe, expect, it } from 'vitest';
import { checkDecision, defaultLimits, type GuardrailLimits } from '../../src/guardrails/guardrails.js';
import { horizonSessions } from '../../src/guardrails/horizon.js';
import type { Decision, GuardrailFinding } from '../../src/result/types.js';
import type { MarketSnapshot } from '../../src/market/types.js';
import { makeSnapshot } from '../support/market.js';

// The snapshot: last close 100, ATR(14) 2.5, 52-week range 70–120, quote as fresh as the clock.
const market = makeSnapshot();
const noAtr = makeSnapshot('ACME', { indicators: { ...market.indicators, atr14: null } });

/** A textbook long: limit below the market, stop 2 ATR under, reward/risk 2.2, 5 % of the portfolio. */
const long: Decision = {
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
/** Its mirror: a limit to sell above the market, stop 2 ATR over. */
const short: Decision = { ...long, action: 'SELL', entry: 101, stopLoss: 106, takeProfit: 90 };

const check = (decision: Decision, snapshot: MarketSnapshot | null = market, limits: Partial<GuardrailLimits> = {}) =>
  checkDecision(decision, snapshot, limits);
const rulesOf = (findings: GuardrailFinding[]) => findings.map((finding) => `${finding.severity}:${finding.rule}`);
const serious = (findings: GuardrailFinding[]) => rulesOf(findings.filter((finding) => finding.severity !== 'info'));

describe('sound decisions pass', () => {
  it('a textbook long and a textbook short produce no finding at all', () => {
    expect(check(long)).toEqual([]);
    expect(check(short)).toEqual([]);
  });

  it('a HOLD with no levels and no size produces none, with or without data', () => {
    const hold: Decision = {
      ...long,
      action: 'HOLD',
      positionSizePct: 0,
      entry: null,
      stopLoss: null,
      takeProfit: null,
    };
    expect(check(hold)).toEqual([]);
    expect(check(hold, null)).toEqual([]);
  });

  it('mutates neither the decision nor the snapshot', () => {
    const decision = structuredClone({ ...long, orderType: 'market' as const, stopLoss: 101 });
    const snapshot = structuredClone(market);
    const before = [structuredClone(decision), structuredClone(snapshot)];
    check(Object.freeze(decision), Object.freeze(snapshot));
    expect([decision, snapshot]).toEqual(before);
  });
});

describe('input validation for library callers', () => {
  it.each([
    ['a negative price', { entry: -5 }, 'entry'],
    ['an absurd price', { takeProfit: 1e308 }, 'takeProfit'],
    ['a negative size', { positionSizePct: -5 }, 'positionSizePct'],
    ['a conviction of 140', { conviction: 140 }, 'conviction'],
    ['a non-finite stop', { stopLoss: Number.NaN }, 'stopLoss'],
  ])('%s is an error naming the field, and nothing else is judged', (_name, change, field) => {
    const findings = check({ ...long, ...change } as Decision);
    expect(rulesOf(findings)).toEqual(['error:invalid-decision']);
    // The one zod-issue formatter: the field, the schema's rule, what was sent.
    expect(findings[0]?.message).toMatch(new RegExp(`^${field}: .+ \\(sent [^)]+\\)$`));
  });
});

describe('size and conviction', () => {
  it('size above the limit is an error; exactly at it passes', () => {
    expect(serious(check({ ...long, positionSizePct: 10 }))).toEqual([]);
    expect(check({ ...long, positionSizePct: 10.5, conviction: 90 })).toContainEqual({
      rule: 'position-size',
      severity: 'error',
      message: 'position size 10.50 % exceeds the 10 % limit',
    });
  });

  it('BUY or SELL with size 0, and HOLD with a size, are warnings', () => {
    expect(rulesOf(check({ ...long, positionSizePct: 0 }))).toEqual(['warning:size-zero']);
    expect(rulesOf(check({ ...short, positionSizePct: 0 }))).toEqual(['warning:size-zero']);
    const hold: Decision = {
      ...long,
      action: 'HOLD',
      positionSizePct: 3,
      entry: null,
      stopLoss: null,
      takeProfit: null,
    };
    expect(rulesOf(check(hold))).toEqual(['warning:hold-size']);
  });

  it('conviction far below the size is a warning; proportional conviction passes', () => {
    expect(check({ ...long, positionSizePct: 10, conviction: 8 })).toContainEqual({
      rule: 'conviction-size',
      severity: 'warning',
      message: 'conviction 8 is low for a 10 % position (at least 50 expected; 50 at the 10 % maximum)',
    });
    expect(serious(check({ ...long, positionSizePct: 10, conviction: 50 }))).toEqual([]);
    expect(rulesOf(check({ ...long, positionSizePct: 10, conviction: 49 }))).toEqual(['warning:conviction-size']);
    expect(serious(check({ ...long, positionSizePct: 5, conviction: 25 }))).toEqual([]);
  });
});

describe('levels present and on the right side', () => {
  it('a limit without entry, or any trade without a stop, is an error; a missing target is a warning', () => {
    expect(rulesOf(check({ ...long, entry: null }))).toContain('error:entry-missing');
    expect(rulesOf(check({ ...long, orderType: 'market', entry: null }))).toEqual(['warning:entry-missing']);
    expect(rulesOf(check({ ...long, stopLoss: null }))).toEqual(['error:stop-missing']);
    expect(rulesOf(check({ ...short, stopLoss: null }))).toEqual(['error:stop-missing']);
    expect(check({ ...long, takeProfit: null })).toEqual([
      {
        rule: 'target-missing',
        severity: 'warning',
        message: 'BUY without a take-profit: reward/risk cannot be checked',
      },
    ]);
  });

  it('a stop or target on the wrong side of the entry is an error, for BUY and SELL', () => {
    expect(rulesOf(check({ ...long, stopLoss: 99.5 }))).toContain('error:stop-side');
    expect(rulesOf(check({ ...long, takeProfit: 98 }))).toContain('error:target-side');
    expect(rulesOf(check({ ...short, stopLoss: 100 }))).toContain('error:stop-side');
    expect(rulesOf(check({ ...short, takeProfit: 104 }))).toContain('error:target-side');
  });

  it('a BUY limit above the market fills at once: a stop above the last price is stopped out on fill', () => {
    const findings = check({ ...long, entry: 105, stopLoss: 101, takeProfit: 115 });
    expect(rulesOf(findings)).toContain('info:marketable-limit');
    expect(findings).toContainEqual({
      rule: 'stop-side',
      severity: 'error',
      message:
        'stop-loss 101 is at or above the fill price 100 (the limit fills at once at the last price) for a BUY: it is stopped out on fill',
    });
  });

  it('a market order is judged at the last price, not its stated entry', () => {
    // Stated: reward 12, risk 4 → 3. Filled at 100: reward 4, risk 12 → 0.33.
    const findings = check({ ...long, orderType: 'market', entry: 92, stopLoss: 88, takeProfit: 104 });
    expect(findings).toContainEqual({
      rule: 'reward-risk',
      severity: 'warning',
      message: 'reward/risk is 0.33 at the fill price 100 (3.00 at the stated entry 92), below 1',
    });
    expect(rulesOf(findings)).toContain('warning:market-entry');
    // A market order stated at the last price reads like a limit there.
    expect(serious(check({ ...long, orderType: 'market', entry: 100, stopLoss: 95, takeProfit: 110 }))).toEqual([]);
  });
});

describe('distances against the data', () => {
  it('entry within 3 ATR of the last price: exactly 3 passes, beyond is an error', () => {
    expect(serious(check({ ...long, entry: 92.5, stopLoss: 88, takeProfit: 104 }))).toEqual([]);
    expect(check({ ...long, entry: 92.4, stopLoss: 88, takeProfit: 104 })).toContainEqual({
      rule: 'entry-distance',
      severity: 'error',
      message: 'entry 92.40 is 3.04 ATR from the last price 100 (limit 3 ATR)',
    });
    expect(rulesOf(check({ ...short, entry: 107.6, stopLoss: 112, takeProfit: 96 }))).toContain('error:entry-distance');
  });

  it('a stop closer than 0.25 ATR is an error: 0.625 from the entry passes, 0.5 does not', () => {
    expect(serious(check({ ...long, stopLoss: 98.375 }))).toEqual([]);
    expect(check({ ...long, stopLoss: 98.5 })).toContainEqual({
      rule: 'stop-tight',
      severity: 'error',
      message: 'stop 98.50 is 0.20 ATR below the entry 99 (min 0.25 ATR): ordinary daily noise stops it out',
    });
    expect(rulesOf(check({ ...short, stopLoss: 101.05 }))).toContain('error:stop-tight');
  });

  it('a stop farther than 6 ATR is a warning: exactly 6 passes', () => {
    expect(serious(check({ ...long, stopLoss: 84, takeProfit: 115 }))).toEqual([]);
    expect(check({ ...long, stopLoss: 83.9, takeProfit: 115 })).toContainEqual({
      rule: 'stop-wide',
      severity: 'warning',
      message: 'stop 83.90 is 6.04 ATR below the entry 99 (max 6 ATR)',
    });
    expect(rulesOf(check({ ...short, stopLoss: 116.1, takeProfit: 85 }))).toContain('warning:stop-wide');
  });

  it('risk per trade above 2 % of the portfolio is an error: exactly 2 % passes', () => {
    const wideStops = { maxStopAtr: 100 };
    // 10 % × a stop 20 % away = 2 %.
    expect(
      serious(check({ ...long, positionSizePct: 10, stopLoss: 79.2, takeProfit: 120 }, market, wideStops)),
    ).toEqual([]);
    expect(
      rulesOf(check({ ...long, positionSizePct: 10, stopLoss: 79.1, takeProfit: 120 }, market, wideStops)),
    ).toEqual(['error:risk-per-trade']);
    // The case: 10 % of the portfolio with a 40 % stop puts 4 % on one trade.
    const findings = check({ ...long, entry: 100, positionSizePct: 10, stopLoss: 60, takeProfit: 140 }, market, {
      ...wideStops,
      maxTargetAtrPerSqrtSession: 100,
    });
    expect(findings).toContainEqual({
      rule: 'risk-per-trade',
      severity: 'error',
      message: 'the trade risks 4.00 % of the portfolio (size 10 % × stop 40.0 % from 100; limit 2 %)',
    });
    expect(rulesOf(check({ ...short, positionSizePct: 10, stopLoss: 122, takeProfit: 80 }, market, wideStops))).toEqual(
      ['error:risk-per-trade'],
    );
  });

  it('reward/risk below 1 is a warning: exactly 1 passes', () => {
    expect(serious(check({ ...long, takeProfit: 104 }))).toEqual([]);
    expect(check({ ...long, takeProfit: 103.9 })).toEqual([
      { rule: 'reward-risk', severity: 'warning', message: 'reward/risk is 0.98, below 1' },
    ]);
    expect(rulesOf(check({ ...short, takeProfit: 96.5 }))).toEqual(['warning:reward-risk']);
  });

  it('a target beyond 3 ATR × √sessions of the horizon is a warning', () => {
    const reach = 3 * Math.sqrt(20) * 2.5;
    expect(serious(check({ ...long, takeProfit: 99 + reach }))).toEqual([]);
    expect(rulesOf(check({ ...long, takeProfit: 99 + reach + 0.1 }))).toEqual(['warning:target-reach']);
    // The cases: 30 ATR away in "1–2 weeks"; a short target 96 % below the price.
    const far = check({ ...long, timeHorizon: '1–2 weeks', takeProfit: 99 + 30 * 2.5 });
    expect(far.find((finding) => finding.rule === 'target-reach')?.message).toBe(
      'take-profit 174 is 30.00 ATR from the entry 99; over "1–2 weeks" (10 sessions) at most 9.49 ATR is realistic (3 ATR × √sessions)',
    );
    expect(rulesOf(check({ ...short, timeHorizon: '1–2 weeks', takeProfit: 4 }))).toEqual([
      'warning:target-reach',
      // Past the range and beyond the ATR reach: an error (issue 45 item 3).
      'error:target-range',
    ]);
  });

  it('a target far beyond the 52-week range is a warning: 25 % past the high (or low) passes', () => {
    const year = { timeHorizon: '1 year' };
    expect(serious(check({ ...long, ...year, takeProfit: 150 }))).toEqual([]);
    expect(check({ ...long, ...year, takeProfit: 151 })).toEqual([
      {
        rule: 'target-range',
        severity: 'warning',
        message: 'take-profit 151 is 25.8 % above the 52-week high 120 (limit 25 %)',
      },
    ]);
    expect(serious(check({ ...short, ...year, takeProfit: 52.5 }))).toEqual([]);
    expect(rulesOf(check({ ...short, ...year, takeProfit: 52 }))).toEqual(['warning:target-range']);
  });
});

describe('missing data', () => {
  it('with no market data every level is unverifiable, HOLD included, while internal checks still run', () => {
    expect(check(long, null)).toEqual([
      {
        rule: 'unverifiable',
        severity: 'warning',
        message: 'entry 99 cannot be checked against the market: no price is available',
      },
      {
        rule: 'unverifiable',
        severity: 'warning',
        message: 'stopLoss 94 cannot be checked against the market: no price is available',
      },
      {
        rule: 'unverifiable',
        severity: 'warning',
        message: 'takeProfit 110 cannot be checked against the market: no price is available',
      },
    ]);
    const hold: Decision = { ...long, action: 'HOLD', positionSizePct: 0, stopLoss: null, takeProfit: null };
    expect(rulesOf(check(hold, null))).toEqual(['warning:unverifiable']);
    expect(rulesOf(check({ ...long, stopLoss: 101 }, null))).toContain('error:stop-side');
    const noPrice = makeSnapshot('ACME', {
      quote: { ...market.quote, price: null },
      indicators: { ...market.indicators, lastClose: null },
    });
    expect(rulesOf(check(short, noPrice))).toEqual([
      'warning:unverifiable',
      'warning:unverifiable',
      'warning:unverifiable',
    ]);
  });

  it('a HOLD with levels is informational when data exists', () => {
    const hold: Decision = { ...long, action: 'HOLD', positionSizePct: 0, entry: 140, stopLoss: 150, takeProfit: null };
    expect(check(hold)).toEqual([
      {
        rule: 'hold-levels',
        severity: 'info',
        message: 'HOLD carries levels (entry 140, stopLoss 150); they are informational only',
      },
    ]);
  });

  it('with ATR missing, distances fall back to percent of the price and say so', () => {
    const findings = check({ ...long, stopLoss: 98.9 }, noAtr);
    expect(findings[0]).toEqual({
      rule: 'atr-missing',
      severity: 'info',
      message: 'ATR(14) is not available: distances are judged in percent of the price, one ATR taken as 2.50 %',
    });
    expect(findings).toContainEqual({
      rule: 'stop-tight',
      severity: 'error',
      message: 'stop 98.90 is 0.10 % below the entry 99 (min 0.63 %): ordinary daily noise stops it out',
    });
    expect(serious(check(long, noAtr))).toEqual([]);
    expect(rulesOf(check({ ...long, entry: 90, stopLoss: 85, takeProfit: 104 }, noAtr))).toContain(
      'error:entry-distance',
    );
  });

  it('a quote older than the last session before the run clock is a warning', () => {
    const stale = makeSnapshot('ACME', { quote: { ...market.quote, priceTime: '2026-11-24T21:00:00.000Z' } });
    expect(check(long, stale)).toEqual([
      {
        rule: 'stale-quote',
        severity: 'warning',
        message:
          "the quote is from 2026-11-24, older than the last session (2026-11-27) before the run's clock 2026-11-27T21:00:00.000Z",
      },
    ]);
    // Saturday's run: Friday's close is the last session.
    const weekend = makeSnapshot('ACME', { asOf: '2026-11-28T15:00:00.000Z' });
    expect(check(long, weekend)).toEqual([]);
    // The Friday after Thanksgiving (2026-11-26, a holiday), 10:00 in New York: Wednesday's
    // close is still the last session.
    const holiday = makeSnapshot('ACME', {
      asOf: '2026-11-27T15:00:00.000Z',
      quote: { ...market.quote, priceTime: '2026-11-25T21:00:00.000Z' },
      indicators: { ...market.indicators, asOfBar: '2026-11-25' },
    });
    expect(check(long, holiday)).toEqual([]);
    // Friday 10:00 in New York: Thursday's close is still the last session.
    const morning = makeSnapshot('ACME', {
      asOf: '2026-11-27T15:00:00.000Z',
      quote: { ...market.quote, priceTime: '2026-11-26T21:00:00.000Z' },
    });
    expect(check(long, morning)).toEqual([]);
  });
});

describe('limits', () => {
  it('are documented defaults and overridable one by one', () => {
    expect(defaultLimits).toMatchObject({
      maxPositionPct: 10,
      maxRiskPct: 2,
      maxEntryAtr: 3,
      minStopAtr: 0.25,
      maxStopAtr: 6,
      minRewardRisk: 1,
    });
    expect(rulesOf(check({ ...long, positionSizePct: 30, conviction: 90 }))).toContain('error:position-size');
    expect(
      rulesOf(check({ ...long, positionSizePct: 30, conviction: 90 }, market, { maxPositionPct: 100, maxRiskPct: 10 })),
    ).toEqual([]);
  });
});

describe('horizonSessions', () => {
  it.each([
    ['1–2 weeks', 10],
    ['2-6 weeks', 30],
    ['3 months', 63],
    ['5 trading days', 5],
    ['1 year', 252],
    ['6 to 12 months', 252],
    ['intraday', 1],
    ['until the next earnings', null],
  ])('%s → %s sessions', (text, sessions) => {
    expect(horizonSessions(text)).toBe(sessions);
  });
});

describe('levels against the year range (issue 45 item 3): thresholds maxStopBeyond52WeekPct 10, maxStopAtr 6', () => {
  const withRange = (low52w: number, high52w: number, atr14 = 2.5) =>
    makeSnapshot('ACME', { indicators: { ...market.indicators, low52w, high52w, atr14 } });
  const cases: Array<{ name: string; decision: Decision; snapshot: MarketSnapshot; expected: string[] }> = [
    {
      name: 'long, stop 9.5 % below the low (5.6 ATR): passes',
      decision: { ...long, stopLoss: 85.975, takeProfit: 130 },
      snapshot: withRange(95, 140),
      expected: [],
    },
    {
      name: 'long, stop 10.5 % below the low (5.6 ATR): warning',
      decision: { ...long, stopLoss: 85.025, takeProfit: 130 },
      snapshot: withRange(95, 140),
      expected: ['warning:stop-range'],
    },
    {
      name: "the issue's case: a stop 26.9 % below the 52-week low at 5 ATR: warning",
      decision: { ...long, stopLoss: 49, takeProfit: 200, timeHorizon: '1 year' },
      snapshot: withRange(67, 180, 10),
      expected: ['warning:stop-range'],
    },
    {
      name: 'long, stop 11.1 % below the low and 7.6 ATR away: error',
      decision: { ...long, stopLoss: 80, takeProfit: 140, timeHorizon: '3 months' },
      snapshot: withRange(90, 140),
      expected: ['warning:stop-wide', 'error:stop-range'],
    },
    {
      name: 'short, stop 10.1 % above the high (5.8 ATR): warning',
      decision: { ...short, stopLoss: 115.6, takeProfit: 70, timeHorizon: '3 months' },
      snapshot: withRange(60, 105),
      expected: ['warning:stop-range'],
    },
    {
      name: 'short, stop 9 % above the high: passes',
      decision: { ...short, stopLoss: 114.45, takeProfit: 70, timeHorizon: '3 months' },
      snapshot: withRange(60, 105),
      expected: [],
    },
  ];
  it.each(cases)('$name', ({ decision, snapshot, expected }) => {
    expect(serious(check(decision, snapshot)).filter((rule) => !rule.includes('risk-per-trade'))).toEqual(expected);
  });

  it('names the stop, its distance past the low and the limit', () => {
    const [finding] = check({ ...long, stopLoss: 85.025, takeProfit: 130 }, withRange(95, 140)).filter(
      (item) => item.rule === 'stop-range',
    );
    expect(finding!.message).toBe('stop 85.03 is 10.5 % below the 52-week low 95 (limit 10 %)');
  });

  it('the textbook decisions stay clean', () => {
    expect(check(long)).toEqual([]);
    expect(check(short)).toEqual([]);
  });
});
