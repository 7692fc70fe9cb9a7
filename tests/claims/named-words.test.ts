import { describe, expect, it } from 'vitest';
import { checkClaims, claimFindings } from '../../src/claims/index.js';
import type { Claim } from '../../src/result/claims.js';
import { claimsDecision, claimsSnapshot } from '../../testkit/claims-world.js';

/** The claims of one text, written as a desk's report or as the decision's rationale. */
function claimsIn(text: string, where: 'report' | 'decision' = 'report'): Claim[] {
  const decision = where === 'decision';
  const { claims } = checkClaims({
    market: claimsSnapshot,
    plan: null,
    reports: decision ? [] : [{ agent: 'quant', text }],
    decision: { ...claimsDecision, rationale: decision ? text : '', keyRisks: [], dissent: null },
  });
  return claims.filter((claim) => claim.field === (decision ? 'decision.rationale' : 'report'));
}

type Row = [text: string, figure: string, status: Claim['status'], source: string | null];

function expectRows(rows: readonly Row[], where: 'report' | 'decision' = 'report') {
  for (const [text, figure, status, source] of rows) {
    const claim = claimsIn(text, where).find((candidate) => candidate.text === figure);
    expect(claim, `${figure} in "${text}"`).toBeDefined();
    expect([claim!.status, claim!.source ?? null], text).toEqual([status, source]);
  }
}

describe('a reading in parentheses is a figure; an indicator period is not (issue 40)', () => {
  it.each<Row>([
    ['The 50-day moving average (138.95) is rising.', '138.95', 'verified', 'snapshot.indicators.sma50'],
    ['The 50-day moving average (128.04) is rising.', '128.04', 'contradicted', 'snapshot.indicators.sma50'],
    ['RSI (71.2) is stretched.', '71.2', 'contradicted', 'snapshot.indicators.rsi14'],
    ['ATR (6.80) is wide.', '6.80', 'contradicted', 'snapshot.indicators.atr14'],
    ['RSI 14 reads 61.', '61', 'contradicted', 'snapshot.indicators.rsi14'],
    ['RSI(14) at 53.6.', '53.6', 'verified', 'snapshot.indicators.rsi14'],
  ])('%s → %s %s', (...row) => expectRows([row]));

  it('the period of RSI(14), EMA(20) or MACD(12, 26, 9) is no figure', () => {
    for (const text of ['RSI(14) is neutral.', 'EMA(20) turned up.', 'MACD (12, 26, 9) crossed.', 'RSI 14 reads 53.6.'])
      expect(
        claimsIn(text).map((claim) => claim.text),
        text,
      ).not.toContainEqual(expect.stringMatching(/^(?:14|20|12|26|9)$/));
  });
});

describe('a look-back binds a general quantity to its period, never another one (issue 40)', () => {
  it.each<Row>([
    ['Annualised volatility over the last year is 29.99 %.', '29.99 %', 'verified', 'snapshot.indicators.volatility1y'],
    [
      'Annualised volatility over the last year is 29.40 %.',
      '29.40 %',
      'contradicted',
      'snapshot.indicators.volatility1y',
    ],
    ['Volatility (1y): 29.40 %.', '29.40 %', 'contradicted', 'snapshot.indicators.volatility1y'],
    ['Volatility (20d): 29.40 %.', '29.40 %', 'verified', 'snapshot.indicators.volatility20d'],
    ['20d vol is 29.99 %.', '29.99 %', 'contradicted', 'snapshot.indicators.volatility20d'],
    ['Over the past six months the stock gained 47.39 %.', '47.39 %', 'contradicted', 'snapshot.indicators.returns.m6'],
    ['Volatility over the past two years is 29.99 %.', '29.99 %', 'unsourced', null],
    ['The stock has gained 47.39 % year to date.', '47.39 %', 'unsourced', null],
    ['Its 200d MA at 138.95 still slopes up.', '138.95', 'contradicted', 'snapshot.indicators.sma200'],
    ['Price holds above the 50-day at 128.04.', '128.04', 'contradicted', 'snapshot.indicators.sma50'],
    [
      'Its maximum drawdown over the year was -12.52 %.',
      '-12.52 %',
      'contradicted',
      'snapshot.indicators.maxDrawdown1y',
    ],
  ])('%s → %s %s', (...row) => expectRows([row]));

  it('a crossed figure names the quantity it is', () => {
    const [drawdown] = claimsIn('Its maximum drawdown over the year was -12.52 %.');
    expect(drawdown?.crossed).toBe('distance from the 52-week high');
    const [volatility] = claimsIn('20d vol is 29.99 %.');
    expect(volatility?.crossed).toBe('1-year volatility');
  });
});

describe('"at" after a level ties its price to it, except after a distance (issue 40)', () => {
  it('a price after a distance is the subject’s', () =>
    expectRows(
      [['The stop is placed 2×ATR(14) below the entry at $130.43.', '$130.43', 'verified', 'decision.stopLoss']],
      'decision',
    ));
});

describe('a fiscal quarter named "the fiscal third quarter" is the company’s own third quarter (issue 40)', () => {
  it('is not the calendar third quarter', () => {
    const [claim] = claimsIn('Revenue grew 18.6 % in the fiscal third quarter.');
    expect(claim?.status).not.toBe('verified');
  });
});

describe('distances and ATR steps from the decision’s own levels are derived (issue 40)', () => {
  it.each<Row>([
    ['The target of 155.57 offers 11.46 % upside from the entry.', '11.46 %', 'derived', null],
    ['The target offers 9.67 % upside from the last close.', '9.67 %', 'derived', null],
    ['The close plus one ATR is 146.42.', '146.42', 'derived', null],
    ['The entry less one ATR is 135.00.', '135.00', 'derived', null],
    ['Resistance plus 1 ATR gives 151.33.', '151.33', 'derived', null],
    ['The entry plus two ATR is 148.71.', '148.71', 'derived', null],
  ])('%s → %s %s', (text, figure, status) => {
    const claim = claimsIn(text, 'decision').find((candidate) => candidate.text === figure);
    expect(claim?.status, text).toBe(status);
    expect(claim?.source, text).toMatch(/ATR|atr14|÷|−/);
  });

  it('a wrong step is contradicted with the derived value, not with ATR', () => {
    const claim = claimsIn('The close plus one ATR is 150.00.', 'decision').find((found) => found.text === '150.00');
    expect(claim).toMatchObject({ status: 'contradicted', sourceText: '146.42' });
    expect(claim?.source).toContain('snapshot.indicators.lastClose + 1 ×');
    expect(claim?.quantity).toBe('close plus one ATR');
    const findings = claimFindings(claimsIn('The target of 155.57 offers 11.46 % upside from the entry.', 'decision'));
    expect(findings.filter((finding) => finding.severity === 'error')).toEqual([]);
  });
});

describe('a round hypothetical is no claim (issue 40)', () => {
  it.each(['A 10 % drawdown from here would hurt.', 'If it fell a further 15 %, the stop would trigger.'])(
    '%s',
    (text) => {
      expect(claimsIn(text).filter((claim) => claim.unit === 'percent')).toEqual([]);
    },
  );

  it('a drawdown the text reports is still a claim', () => {
    expect(claimsIn('The stock suffered a 27 % drawdown last year.').map((claim) => claim.status)).toEqual([
      'verified',
    ]);
  });
});
