import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkClaims, type ClaimsInput } from '../../src/claims/index.js';
import { makeSnapshot } from '../support/market.js';

/** The pipeline tests' snapshot: close 100, ATR 2.5, RSI 61, beta 1.2, SMA50 95, support 95, resistance 105. */
const market = makeSnapshot();
const decision = {
  action: 'BUY',
  orderType: 'limit',
  entry: 99,
  stopLoss: 94,
  takeProfit: 110,
  positionSizePct: 4,
  conviction: 64,
  rationale: '',
  keyRisks: [],
  dissent: null,
};

function deskClaims(text: string, input: Partial<ClaimsInput> = {}) {
  const { claims } = checkClaims({ market, plan: null, decision: null, reports: [{ agent: 'quant', text }], ...input });
  return claims.map((claim) => [claim.text, claim.status, claim.source ?? null]);
}

describe('claim statuses against a fixture snapshot', () => {
  it.each([
    ['RSI(14) at 61.0.', ['61.0', 'verified', 'snapshot.indicators.rsi14']],
    ['ATR(14) 2.50 USD.', ['2.50 USD', 'verified', 'snapshot.indicators.atr14']],
    ['The 1-month return is +5.00 %.', ['+5.00 %', 'verified', 'snapshot.indicators.returns.m1']],
    ['Market cap 50 B USD.', ['50 B USD', 'verified', 'snapshot.quote.marketCap']],
    ['The year ends 2026-11-27.', ['2026-11-27', 'verified', 'snapshot.asOf']],
    ['A stop at 95.00 USD sits on support.', ['95.00 USD', 'verified', 'snapshot.indicators.sma50']],
    [
      'Two ATR under the close is 95.00 USD... or 97.50 USD for one.',
      ['97.50 USD', 'derived', 'snapshot.indicators.lastClose − 1 × ATR'],
    ],
    ['ATR is 2.50 % of the close.', ['2.50 %', 'derived', '1 × ATR ÷ lastClose']],
    ['The close sits 5.26 % above support.', ['5.26 %', 'derived', expect.any(String)]],
    ['RSI(14) at 48.2.', ['48.2', 'contradicted', 'snapshot.indicators.rsi14']],
    ['Beta 2.10 amplifies the market.', ['2.10', 'contradicted', 'snapshot.quote.beta']],
    ['Momentum reads 0.72 on our model.', ['0.72', 'unsourced', null]],
    ['A 7.31 % move is possible.', ['7.31 %', 'unsourced', null]],
  ])('%s', (text, expected) => {
    expect(deskClaims(text)).toContainEqual(expected);
  });

  it('rounds at the boundary: 53.6 stands for 53.55 up to 53.65 at one decimal, and no further', () => {
    const at = (rsi14: number, text: string) =>
      checkClaims({
        market: { ...market, indicators: { ...market.indicators, rsi14 } },
        plan: null,
        decision: null,
        reports: [{ agent: 'quant', text }],
      }).claims[0]!.status;
    expect(at(53.55, 'RSI 53.6')).toBe('verified');
    expect(at(53.65, 'RSI 53.6')).toBe('verified');
    expect(at(53.5499, 'RSI 53.6')).toBe('contradicted');
    expect(at(53.6501, 'RSI 53.6')).toBe('contradicted');
    // More digits than the data rounds to must all be right: 53.55 is not the 53.6314 the run computed.
    expect(at(53.6314, 'RSI 53.55')).toBe('contradicted');
    expect(at(53.6314, 'RSI 53.63')).toBe('verified');
    expect(at(53.6314, 'RSI 54')).toBe('verified');
  });

  it('reads percent against fractions, scales against units, and a sign only where one is written', () => {
    expect(deskClaims('Volatility of 35.0 % over the year and a drawdown of 22 %.')).toEqual([
      ['35.0 %', 'verified', 'snapshot.indicators.volatility1y'],
      ['22 %', 'verified', 'snapshot.indicators.maxDrawdown1y'],
    ]);
    // Written with the wrong sign, a drawdown is contradicted.
    expect(deskClaims('Drawdown +22 %.')).toEqual([['+22 %', 'contradicted', 'snapshot.indicators.maxDrawdown1y']]);
    // A fraction where a percentage is meant verifies; a score next to the word contradicts nothing.
    expect(deskClaims('Volatility 0.35.')).toEqual([['0.35', 'verified', 'snapshot.indicators.volatility1y']]);
    expect(deskClaims('Volatility 0.50: 1 = calm.')).toEqual([['0.50', 'unsourced', null]]);
    expect(deskClaims('A $50 billion company.')).toEqual([['$50 billion', 'verified', 'snapshot.quote.marketCap']]);
  });

  it('finds three injected wrong figures in a desk text, and names the true values', () => {
    const { claims } = checkClaims({
      market,
      plan: null,
      decision: null,
      reports: [
        {
          agent: 'quant',
          text: 'Last close 100.00 USD. RSI(14) 71.2, ATR(14) 9.80 USD and beta 2.10; SMA50 95.00 USD.',
        },
      ],
    });
    const wrong = claims.filter((claim) => claim.status === 'contradicted');
    expect(wrong.map((claim) => [claim.quantity, claim.text, claim.sourceText])).toEqual([
      ['RSI(14)', '71.2', '61.0'],
      ['ATR(14)', '9.80 USD', '2.50 USD'],
      ['beta', '2.10', '1.20'],
    ]);
    expect(claims.filter((claim) => claim.status === 'verified')).toHaveLength(2);
  });

  it("holds the decision's text to its own levels; a desk's other levels are not contradicted", () => {
    const text =
      'Buy at a limit of 99.00 with a stop at 92.00 and a target of 110.00; reward/risk 2.20, conviction 64.';
    const { claims } = checkClaims({
      market,
      plan: null,
      reports: [{ agent: 'execution', text }],
      decision: { ...decision, rationale: text },
    });
    const by = (field: string) =>
      claims.filter((claim) => claim.field === field).map((claim) => [claim.text, claim.status, claim.source]);
    expect(by('decision.rationale')).toEqual(
      [
        ['99.00', 'verified', 'decision.entry'],
        ['92.00', 'contradicted', 'decision.stopLoss'],
        ['110.00', 'verified', 'decision.takeProfit'],
        [
          '2.20',
          'verified',
          '(takeProfit − decision.entry) ÷ (decision.entry − stopLoss)'.replace('verified', 'derived'),
        ],
        ['64', 'verified', 'decision.conviction'],
      ].map((row) => (row[0] === '2.20' ? ['2.20', 'derived', row[2]] : row)),
    );
    expect(by('report').find((row) => row[0] === '92.00')?.[1]).toBe('unsourced');
  });

  it('tool results are sources of the desk that received them, and only of that desk', () => {
    const toolCalls = [
      {
        name: 'exa_search',
        result:
          '<<<frame>>>\n[{"publishedDate":"2026-11-05T13:10:00.000Z","snippet":"revenue up 19 % year over year"}]\n<<<end>>>',
      },
    ];
    const reports = [
      { agent: 'sentiment', text: 'On Nov 5 revenue rose 19 %.', toolCalls },
      { agent: 'quant', text: 'On Nov 5 revenue rose 19 %.' },
    ];
    const { claims } = checkClaims({ market, plan: null, decision: null, reports });
    expect(claims.map((claim) => [claim.agent, claim.text, claim.status, claim.source ?? null])).toEqual([
      ['sentiment', 'Nov 5', 'verified', 'exa_search#1[0].publishedDate'],
      ['sentiment', '19 %', 'verified', 'exa_search#1[0].snippet'],
      ['quant', 'Nov 5', 'unsourced', null],
      // The quant's words name revenue growth, which the snapshot has at 15 %.
      ['quant', '19 %', 'contradicted', 'snapshot.quote.revenueGrowth'],
    ]);
  });

  it('counts per agent, and names where an unsourced figure of the decision came from', () => {
    const { claims, summary } = checkClaims({
      market,
      plan: null,
      reports: [{ agent: 'risk', text: 'Risk allows at most 7.7 % of the portfolio; RSI 61.' }],
      decision: { ...decision, rationale: 'Risk allows up to 7.7 %; RSI(14) at 61 and a limit at 99.' },
    });
    expect(claims.find((claim) => claim.field === 'decision.rationale' && claim.text === '7.7 %')).toMatchObject({
      status: 'unsourced',
      via: 'report.risk',
    });
    expect(summary.byAgent.risk).toEqual({
      total: 2,
      verified: 1,
      derived: 0,
      unsourced: 1,
      contradicted: 0,
      verifiedShare: 0.5,
    });
    expect(summary.byAgent.director).toMatchObject({ total: 3, verified: 2, unsourced: 1 });
    expect(summary.total).toBe(5);
  });

  it('a run without market data has nothing to verify figures against, and contradicts nothing', () => {
    const { claims, summary } = checkClaims({
      market: null,
      plan: null,
      decision: null,
      reports: [{ agent: 'quant', text: 'RSI 48.2, close 12.30 USD.' }],
    });
    expect(claims.map((claim) => claim.status)).toEqual(['unsourced', 'unsourced']);
    expect(summary.verifiedShare).toBe(0);
    expect(checkClaims({ market, plan: null, decision: null, reports: [] }).summary.verifiedShare).toBeNull();
  });
});

describe('prose as models write it', () => {
  const levels = { ...decision, entry: 99, stopLoss: 95.25, takeProfit: 110 };
  const decided = (rationale: string) =>
    checkClaims({ market, plan: null, reports: [], decision: { ...levels, rationale } }).claims.map((claim) => [
      claim.text,
      claim.status,
      claim.source ?? null,
    ]);

  it.each([
    // A threshold is no reading of the RSI.
    ['RSI near 20 would be deeply oversold.', [['20', 'unsourced', null]]],
    // The figure in parentheses after "below entry" is the stop, not the entry.
    [
      'A stop 1.5 × ATR below entry ($95.25).',
      [
        ['1.5 × ATR', 'derived', '(decision.stopLoss − decision.entry) ÷ ATR'],
        ['$95.25', 'verified', 'decision.stopLoss'],
      ],
    ],
    // Support is soft: another level by that name verifies; a number nothing has is contradicted.
    ['Next support at $90 (SMA200).', [['$90', 'verified', 'snapshot.indicators.sma200']]],
    ['Support near $91.', [['$91', 'contradicted', 'snapshot.indicators.support']]],
    ['It trades at 30x earnings.', [['30x', 'verified', 'snapshot.quote.trailingPE']]],
    // A round price is not "derived" from some anchor ± k ATR by chance.
    ['A move to $104 is possible.', [['$104', 'unsourced', null]]],
  ])('%s', (rationale, expected) => {
    expect(decided(rationale)).toEqual(expected);
  });
});

describe('rounding, as a property', () => {
  const at = (rsi14: number, text: string) =>
    checkClaims({
      market: { ...market, indicators: { ...market.indicators, rsi14 } },
      plan: null,
      decision: null,
      reports: [{ agent: 'quant', text }],
    }).claims[0]!;

  it('an RSI printed to any number of decimals verifies; two units of its last digit off (and off the value as shown) contradicts', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 99, noNaN: true }), fc.integer({ min: 0, max: 3 }), (rsi, decimals) => {
        expect(at(rsi, `RSI(14) at ${rsi.toFixed(decimals)}.`).status).toBe('verified');
        const off = (Number(rsi.toFixed(decimals)) + 2 * 10 ** -decimals).toFixed(decimals);
        // The block shows RSI to one decimal; a figure that rounds the value as shown verifies too.
        fc.pre(Math.abs(Number(off) - Number(rsi.toFixed(1))) > 0.5 * 10 ** -decimals + 1e-9);
        const claim = at(rsi, `RSI(14) at ${off}.`);
        const threshold = decimals === 0 && [20, 30, 50, 70, 80].includes(Number(off));
        // A threshold (RSI 70) is read as no reading: never contradicted, whatever else it matches.
        if (threshold) expect(claim.status).not.toBe('contradicted');
        else expect(claim.status).toBe('contradicted');
      }),
      { numRuns: 200 },
    );
  });
});

describe('tool output as a source', () => {
  it('an MCP tool’s JSON is walked leaf by leaf; odd keys are quoted and cut in the source path', () => {
    const key = `<b>${'x'.repeat(60)}`;
    const toolCalls = [
      { name: 'fundamentals__ratios', result: JSON.stringify({ ratios: { grossMargin: 41.25, [key]: 7.77 } }) },
    ];
    const { claims } = checkClaims({
      market,
      plan: null,
      decision: null,
      reports: [{ agent: 'quant', text: 'Gross margin 41.25 and 7.77 too.', toolCalls }],
    });
    expect(claims.map((claim) => [claim.text, claim.status, claim.source])).toEqual([
      ['41.25', 'verified', 'fundamentals__ratios#1.ratios.grossMargin'],
      ['7.77', 'verified', `fundamentals__ratios#1.ratios[${JSON.stringify(key.slice(0, 24))}]`],
    ]);
  });
});

it('a contradiction quotes the value of the period the text names', () => {
  const { claims } = checkClaims({
    market,
    plan: null,
    decision: null,
    reports: [{ agent: 'risk', text: '20-day volatility 45.0 % and 1-year volatility 12.0 %.' }],
  });
  expect(claims.map((claim) => [claim.status, claim.source, claim.sourceText])).toEqual([
    ['contradicted', 'snapshot.indicators.volatility20d', '30.00 %'],
    ['contradicted', 'snapshot.indicators.volatility1y', '35.00 %'],
  ]);
});

describe('a money figure of a listing not in dollars', () => {
  const london = makeSnapshot('OCDO.L', { identity: { ...market.identity, symbol: 'OCDO.L', currency: 'GBP' } });
  const truthOf = (text: string, snapshot = london) =>
    checkClaims({ market: snapshot, plan: null, decision: null, reports: [{ agent: 'quant', text }] })
      .claims.filter((claim) => claim.status === 'contradicted')
      .map((claim) => [claim.text, claim.sourceText]);

  it('quotes the true value in the data\'s currency, never with a "$"', () => {
    expect(truthOf('ATR(14) 3.10 USD.')).toEqual([['3.10 USD', '2.50 GBP']]);
    expect(truthOf('ATR(14) $3.10.')).toEqual([['$3.10', '2.50 GBP']]);
    expect(truthOf('ATR(14) 3.10 GBP.')).toEqual([['3.10 GBP', '2.50 GBP']]);
  });

  it("leaves a US listing's figures as written", () => {
    expect(truthOf('ATR(14) $3.10.', market)).toEqual([['$3.10', '$2.50']]);
  });
});
