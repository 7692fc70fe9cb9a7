import { describe, expect, it } from 'vitest';
import { extractFigures } from '../../src/claims/extract.js';

/** A sentence and the figures in it: [as written, value, unit, the quantity named before it]. */
const table: Array<[string, Array<[string, number | string, string, string?]>]> = [
  // prices
  ['The stock closed at $141.85 on Friday.', [['$141.85', 141.85, 'currency', 'closed at']]],
  [
    'Last close 141.85 USD against SMA20 139.97 USD.',
    [
      ['141.85 USD', 141.85, 'currency', 'Last close'],
      ['139.97 USD', 139.97, 'currency', 'SMA20'],
    ],
  ],
  [
    'A stop-loss at 130.43, below support 132.02.',
    [
      ['130.43', 130.43, 'number', 'stop-loss'],
      ['132.02', 132.02, 'number', 'support'],
    ],
  ],
  ['USD 12.5 a share.', [['12.5', 12.5, 'currency']]],
  // percentages, signed and not
  [
    'SMA50 138.95 USD (close +2.09 % vs it), drawdown -27.11%.',
    [
      ['138.95 USD', 138.95, 'currency', 'SMA50'],
      // "vs it" points back to the SMA50 by a pronoun: no name binds it.
      ['+2.09 %', 2.09, 'percent'],
      ['-27.11%', -27.11, 'percent', 'drawdown'],
    ],
  ],
  [
    'Revenue rose 19 percent and margins 14.2 pct.',
    [
      ['19 percent', 19, 'percent', 'Revenue rose'],
      ['14.2 pct', 14.2, 'percent'],
    ],
  ],
  // named plain numbers
  [
    'RSI(14) at 53.6, ATR 4.57, beta 1.34 and a P/E of 31.4.',
    [
      ['53.6', 53.6, 'number', 'RSI(14)'],
      ['4.57', 4.57, 'number', 'ATR'],
      ['1.34', 1.34, 'number', 'beta'],
      ['31.4', 31.4, 'number', 'P/E'],
    ],
  ],
  [
    'Conviction 64 and a position size of 4 %.',
    [
      ['64', 64, 'number', 'Conviction'],
      ['4 %', 4, 'percent', 'position size'],
    ],
  ],
  // magnitudes
  [
    'Market cap 38.44B; volume 3.09 M shares; a $1.2 trillion market.',
    [
      ['38.44B', 38.44e9, 'number', 'Market cap'],
      ['3.09 M', 3.09e6, 'number', 'volume'],
      ['$1.2 trillion', 1.2e12, 'currency'],
    ],
  ],
  ['Market cap: 38.44 B USD.', [['38.44 B USD', 38.44e9, 'currency', 'Market cap']]],
  // dates
  [
    'Results on 2026-11-05, the review on Nov 27 and the vote on 3 December 2026.',
    [
      ['2026-11-05', '2026-11-05', 'date'],
      ['Nov 27', '--11-27', 'date'],
      ['3 December 2026', '2026-12-03', 'date'],
    ],
  ],
  // ratios and multiples
  [
    'Reward-to-risk 1.75, a 2 × ATR stop, 1.5x volume and 3:1 odds.',
    [
      ['1.75', 1.75, 'number', 'Reward-to-risk'],
      ['2 × ATR', 2, 'atr'],
      ['1.5x', 1.5, 'ratio'],
      ['3:1', 3, 'ratio'],
    ],
  ],
  ['Trail by 2x ATR(14).', [['2x ATR(14)', 2, 'atr']]],
  // not claims: ordinals, list numbers, periods in names, durations, years, times, URLs, bare counts
  ['The 3rd quarter beat; 2 of 3 averages; in 2026 the SMA 50 and RSI(14) and the 20-day average.', []],
  ['1. First source — https://news.example.com/2026/11/05/acme-q3\n2) Second source', []],
  ['Horizon 4–8 weeks, returns over 3 months and 1 year, GTC for five sessions, at 18:00 UTC.', []],
  ['The CB-7 arm, the S&P 500 and Q3 guidance; EMA(20) and MACD(12,26,9).', []],
  [
    'A 52-week high of 162.15 and 1-year volatility of 29.99 %.',
    [
      ['162.15', 162.15, 'number', '52-week high'],
      ['29.99 %', 29.99, 'percent', '1-year volatility'],
    ],
  ],
  // A self-assessed score claims nothing of the data; a bare 0.50 is still read.
  ['Risk score 0.65 (0 low, 1 high); momentum 0.50: 1 = calm.', [['0.50', 0.5, 'number']]],
  ['Sentiment 0.68 (0 very negative, 1 very positive), and a 10 % move would be unusual.', []],
  // a comparison word breaks the naming: this close is no price claim
  ['A daily close below 130.43 USD ends it.', [['130.43 USD', 130.43, 'currency']]],
  [
    'A range of 130-135 and 86.92 USD – 162.15 USD.',
    [
      ['86.92 USD', 86.92, 'currency'],
      ['162.15 USD', 162.15, 'currency'],
    ],
  ],
  ['Volume of 3,090,827 shares.', [['3,090,827', 3090827, 'number', 'Volume']]],
];

describe('extractFigures', () => {
  it.each(table)('%s', (sentence, expected) => {
    const figures = extractFigures(sentence).map((figure) => {
      const row: [string, number | string, string, string?] = [figure.text, figure.value, figure.unit];
      if (figure.quantity) row.push(figure.quantity.text);
      return row;
    });
    expect(figures).toEqual(expected);
  });

  it('gives each figure its place in the text and the rounding of its last digit', () => {
    const text = 'RSI(14) at 53.6 and 38.44 B USD';
    const [rsi, cap] = extractFigures(text);
    expect(text.slice(rsi!.start, rsi!.end)).toBe('53.6');
    expect(rsi!.tolerance).toBeCloseTo(0.05, 12);
    expect(text.slice(cap!.start, cap!.end)).toBe('38.44 B USD');
    expect(cap!.tolerance).toBeCloseTo(0.005e9, 0);
  });
});
