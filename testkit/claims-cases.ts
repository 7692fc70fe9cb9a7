/**
 * The claims case set (issue 40): sentences written the way analysts write them, against the
 * run of testkit/claims-world.ts, each figure labelled with the verdict it should get.
 *
 * - `ok`: correct, and must not be flagged (verified or derived);
 * - `derived`: correct and computed from the decision's levels or the data: must be marked derived;
 * - `wrong`: a wrong value of a quantity the words name: must be flagged;
 * - `crossed`: the value of another quantity: must be contradicted, naming both;
 * - `none`: not a claim (a count, a threshold, a score, a name): must not be flagged.
 *
 * `where` is the text it stands in: a desk's report (`desk`, the default) or the decision's
 * rationale (`decision`), where the decision's own levels can be wrong.
 */

export type CaseLabel = 'ok' | 'derived' | 'wrong' | 'crossed' | 'none';

export interface ClaimCase {
  text: string;
  where?: 'desk' | 'decision';
  figures: Array<[written: string, label: CaseLabel]>;
}

/** Levels, averages and the close. */
const levels: ClaimCase[] = [
  { text: 'ACME last closed at $141.85, a touch above its 20-day average.', figures: [['$141.85', 'ok']] },
  { text: 'Shares settled at 141.85 USD on Friday.', figures: [['141.85 USD', 'ok']] },
  { text: 'The stock trades at $142, just under resistance.', figures: [['$142', 'ok']] },
  { text: 'Price: 143.20 USD, up on the week.', figures: [['143.20 USD', 'wrong']] },
  {
    text: 'The 50-day moving average sits at 138.95 and the 200-day at 128.04.',
    figures: [
      ['138.95', 'ok'],
      ['128.04', 'ok'],
    ],
  },
  { text: 'The SMA200, which sits at 138.95, is still rising.', figures: [['138.95', 'crossed']] },
  { text: 'Price holds above the 200-day SMA (128.04 USD).', figures: [['128.04 USD', 'ok']] },
  { text: 'SMA50: $128.04, a level bulls need to defend.', figures: [['$128.04', 'crossed']] },
  { text: 'The 20-day SMA is at 139.97 USD.', figures: [['139.97 USD', 'ok']] },
  { text: 'Its 20-day moving average of 141.20 is flat.', figures: [['141.20', 'wrong']] },
  { text: 'We watch the 50 DMA at 139.97.', figures: [['139.97', 'crossed']] },
  { text: 'The 200-day line near $131 is far below.', figures: [['$131', 'wrong']] },
  {
    text: 'The 52-week high is $162.15 and the 52-week low $86.92.',
    figures: [
      ['$162.15', 'ok'],
      ['$86.92', 'ok'],
    ],
  },
  { text: 'A 52-week low of 92.40 leaves a wide range.', figures: [['92.40', 'wrong']] },
  { text: 'The one-year high of 146.76 caps the move.', figures: [['146.76', 'crossed']] },
  {
    text: 'Support is at 132.02 with resistance at 146.76.',
    figures: [
      ['132.02', 'ok'],
      ['146.76', 'ok'],
    ],
  },
  { text: 'Nearest support sits around $132.', figures: [['$132', 'ok']] },
  { text: 'Resistance near 151.30 USD.', figures: [['151.30 USD', 'wrong']] },
  { text: 'Analysts see fair value at a consensus target of $162.00.', figures: [['$162.00', 'ok']] },
  { text: 'The consensus price target of $175 implies upside.', figures: [['$175', 'wrong']] },
];

/** Oscillators, volatility, drawdown, beta and volume. */
const indicators: ClaimCase[] = [
  { text: 'RSI(14) reads 53.6, neutral.', figures: [['53.6', 'ok']] },
  { text: 'The 14-day RSI is 54, mid-range.', figures: [['54', 'ok']] },
  { text: 'RSI printed 71 — overbought territory.', figures: [['71', 'wrong']] },
  { text: 'Momentum is soft with the relative strength index at 48.2.', figures: [['48.2', 'wrong']] },
  {
    text: 'An RSI above 70 would argue for patience; below 30 it would be oversold.',
    figures: [
      ['70', 'none'],
      ['30', 'none'],
    ],
  },
  {
    text: 'ATR(14) is 4.57 USD, about 3.22 % of the price.',
    figures: [
      ['4.57 USD', 'ok'],
      ['3.22 %', 'ok'],
    ],
  },
  { text: 'Average true range stands at $5.10.', figures: [['$5.10', 'wrong']] },
  { text: 'Daily ATR of 4.6 points.', figures: [['4.6', 'ok']] },
  {
    text: '20-day realised volatility is 29.4 %, slightly below the 1-year figure of 29.99 %.',
    figures: [
      ['29.4 %', 'ok'],
      ['29.99 %', 'ok'],
    ],
  },
  { text: 'One-year volatility of 29.40 % is modest.', figures: [['29.40 %', 'crossed']] },
  { text: '20-day volatility 29.99 % argues for a wider stop.', figures: [['29.99 %', 'crossed']] },
  {
    text: 'Annualised volatility is 29.4 % over 20 days and 30.0 % over the year.',
    figures: [
      ['29.4 %', 'ok'],
      ['30.0 %', 'ok'],
    ],
  },
  { text: 'Realised volatility runs at 41 %, elevated for the sector.', figures: [['41 %', 'wrong']] },
  { text: 'The maximum drawdown over the past year was -27.11 %.', figures: [['-27.11 %', 'ok']] },
  { text: 'Its worst peak-to-trough fall this year was 27 %.', figures: [['27 %', 'ok']] },
  { text: 'Max drawdown of 18.5 % shows resilience.', figures: [['18.5 %', 'wrong']] },
  { text: 'Beta of 1.34 means it amplifies the index.', figures: [['1.34', 'ok']] },
  { text: 'With a beta near 0.9 the name is defensive.', figures: [['0.9', 'wrong']] },
  { text: 'Average daily volume is 3.09 M shares.', figures: [['3.09 M', 'ok']] },
  { text: 'Volume has averaged 3.05 million shares over 20 days.', figures: [['3.05 million', 'ok']] },
  { text: 'Relative volume 0.97 shows no distribution.', figures: [['0.97', 'ok']] },
  { text: 'Volume ratio of 1.45 signals heavy accumulation.', figures: [['1.45', 'wrong']] },
];

/** Returns over named periods, with signs written or implied. */
const returns: ClaimCase[] = [
  { text: 'The stock is up 6.33 % over the past month.', figures: [['6.33 %', 'ok']] },
  {
    text: 'The 1-month return is +6.33 % and the 3-month return -6.18 %.',
    figures: [
      ['+6.33 %', 'ok'],
      ['-6.18 %', 'ok'],
    ],
  },
  { text: 'The 3-month return of +6.18 % shows strength.', figures: [['+6.18 %', 'wrong']] },
  { text: 'Shares fell 6.2 % over three months.', figures: [['6.2 %', 'ok']] },
  { text: 'Shares rose 6.18 % over the last three months.', figures: [['6.18 %', 'wrong']] },
  { text: 'Over one year the stock has gained 47.39 %.', figures: [['47.39 %', 'ok']] },
  { text: 'A 1-year return of 28.69 % beats the sector.', figures: [['28.69 %', 'crossed']] },
  { text: 'The six-month return is 28.7 %.', figures: [['28.7 %', 'ok']] },
  { text: 'Its 1-week performance of +0.22 % is flat.', figures: [['+0.22 %', 'ok']] },
  { text: 'The one-month gain of 9.8 % looks stretched.', figures: [['9.8 %', 'wrong']] },
  { text: 'On the day the stock added 0.84 %.', figures: [['0.84 %', 'ok']] },
  {
    text: 'Day change +1.18 USD (+0.84 %).',
    figures: [
      ['+1.18 USD', 'ok'],
      ['+0.84 %', 'ok'],
    ],
  },
  { text: 'The stock has rallied 63.2 % off its 52-week low.', figures: [['63.2 %', 'ok']] },
];

/** Distances from named levels, as the data gives them. */
const distances: ClaimCase[] = [
  { text: 'The close is 12.5 % below the 52-week high.', figures: [['12.5 %', 'ok']] },
  { text: 'The close is 3.2 % below the 52-week high.', figures: [['3.2 %', 'wrong']] },
  {
    text: 'Shares trade 12.52 % under their one-year high of 162.15.',
    figures: [
      ['12.52 %', 'ok'],
      ['162.15', 'ok'],
    ],
  },
  { text: 'Price sits 2.09 % above the 50-day average.', figures: [['2.09 %', 'ok']] },
  { text: 'Price sits 2.09 % above the 200-day average.', figures: [['2.09 %', 'crossed']] },
  { text: 'The close is 10.8 % above its SMA200.', figures: [['10.8 %', 'ok']] },
  { text: 'The close is 10.8 % below its SMA200, a broken trend.', figures: [['10.8 %', 'wrong']] },
  { text: 'The stock is 1.34 % above its 20-day SMA.', figures: [['1.34 %', 'ok']] },
  { text: 'Price stands 63.2 % above the 52-week low.', figures: [['63.2 %', 'ok']] },
  { text: 'It trades 41 % above its 52-week low.', figures: [['41 %', 'wrong']] },
  {
    text: 'The close is 3.46 % below resistance at 146.76.',
    figures: [
      ['3.46 %', 'derived'],
      ['146.76', 'ok'],
    ],
  },
  { text: 'Price is 7.45 % above support.', figures: [['7.45 %', 'derived']] },
  { text: 'The stock sits $9.83 above support.', figures: [['$9.83', 'derived']] },
  {
    text: 'The analyst target of $162.00 implies 14.2 % upside.',
    figures: [
      ['$162.00', 'ok'],
      ['14.2 %', 'derived'],
    ],
  },
  { text: 'The close sits 4.91 USD below resistance.', figures: [['4.91 USD', 'derived']] },
  { text: 'Price is 6.0 % above the 50-day moving average.', figures: [['6.0 %', 'wrong']] },
];

/** The decision's levels and what follows from them. */
const decision: ClaimCase[] = [
  {
    text: 'Buy on a limit at 139.57 with a stop at 130.43 and a target of 155.57.',
    where: 'decision',
    figures: [
      ['139.57', 'ok'],
      ['130.43', 'ok'],
      ['155.57', 'ok'],
    ],
  },
  {
    text: 'Enter at $139.57, 2.28 USD below the close.',
    where: 'decision',
    figures: [
      ['$139.57', 'ok'],
      ['2.28 USD', 'derived'],
    ],
  },
  {
    text: 'The limit at 139.57 sits 0.5 ATR under the last close.',
    where: 'decision',
    figures: [
      ['139.57', 'ok'],
      ['0.5 ATR', 'derived'],
    ],
  },
  { text: 'The entry is 1.61 % under the close.', where: 'decision', figures: [['1.61 %', 'derived']] },
  {
    text: 'The stop-loss at 130.43 USD is 2.0 ATR below entry.',
    where: 'decision',
    figures: [
      ['130.43 USD', 'ok'],
      ['2.0 ATR', 'derived'],
    ],
  },
  { text: 'A stop 2 × ATR away limits the loss.', where: 'decision', figures: [['2 × ATR', 'derived']] },
  { text: 'The stop is 6.55 % below the entry.', where: 'decision', figures: [['6.55 %', 'derived']] },
  { text: 'The stop is 8.05 % under the current price.', where: 'decision', figures: [['8.05 %', 'derived']] },
  {
    text: 'The stop sits 11.42 USD under the close, 2.5 ATRs.',
    where: 'decision',
    figures: [
      ['11.42 USD', 'derived'],
      ['2.5 ATRs', 'derived'],
    ],
  },
  {
    text: 'Target 155.57 USD, 3.5 × ATR above entry.',
    where: 'decision',
    figures: [
      ['155.57 USD', 'ok'],
      ['3.5 × ATR', 'derived'],
    ],
  },
  {
    text: 'The target is 11.46 % above the entry, 16.00 USD of reward.',
    where: 'decision',
    figures: [
      ['11.46 %', 'derived'],
      ['16.00 USD', 'derived'],
    ],
  },
  { text: 'The take-profit is 9.67 % above the last close.', where: 'decision', figures: [['9.67 %', 'derived']] },
  { text: 'Reward-to-risk is 1.75 at the limit.', where: 'decision', figures: [['1.75', 'derived']] },
  { text: 'That is a 1.75:1 payoff.', where: 'decision', figures: [['1.75:1', 'derived']] },
  { text: 'Reward/risk 2.4 makes the setup attractive.', where: 'decision', figures: [['2.4', 'wrong']] },
  {
    text: 'At 4 % of the portfolio, the trade risks 0.26 % of capital if stopped.',
    where: 'decision',
    figures: [
      ['4 %', 'ok'],
      ['0.26 %', 'derived'],
    ],
  },
  { text: 'Risk per trade is 0.26 % of the book.', where: 'decision', figures: [['0.26 %', 'derived']] },
  { text: 'Risk per trade is 0.55 % of the book.', where: 'decision', figures: [['0.55 %', 'wrong']] },
  { text: 'Risk per share of $9.14 on the limit.', where: 'decision', figures: [['$9.14', 'derived']] },
  { text: 'Stop at 128.50 below the 200-day.', where: 'decision', figures: [['128.50', 'wrong']] },
  { text: 'Take profit at 162.15, the 52-week high.', where: 'decision', figures: [['162.15', 'crossed']] },
  { text: 'The limit at 141.85 buys the close.', where: 'decision', figures: [['141.85', 'crossed']] },
  {
    text: 'Position size 4 %, conviction 64.',
    where: 'decision',
    figures: [
      ['4 %', 'ok'],
      ['64', 'ok'],
    ],
  },
  { text: 'We size at 6 % of NAV.', where: 'decision', figures: [['6 %', 'wrong']] },
  { text: 'Conviction is 72 out of 100.', where: 'decision', figures: [['72', 'wrong']] },
  { text: 'The stop lies 3.0 ATR below the entry.', where: 'decision', figures: [['3.0 ATR', 'wrong']] },
  { text: 'The target sits 14.2 % above the entry.', where: 'decision', figures: [['14.2 %', 'wrong']] },
  {
    text: 'A trailing stop of 2 × ATR would ratchet behind the move.',
    where: 'decision',
    figures: [['2 × ATR', 'derived']],
  },
  {
    text: 'The stop at 130.43 is 1.59 below support 132.02.',
    where: 'decision',
    figures: [
      ['130.43', 'ok'],
      ['1.59', 'derived'],
      ['132.02', 'ok'],
    ],
  },
  { text: 'One ATR above the entry is 144.14.', where: 'decision', figures: [['144.14', 'derived']] },
  {
    text: 'A break below 134.71, one ATR under the limit, would be a warning.',
    where: 'decision',
    figures: [['134.71', 'wrong']],
  },
];

/** Valuation and quote statistics. */
const valuation: ClaimCase[] = [
  {
    text: 'The stock trades at 31.4x trailing earnings and 26.7x forward.',
    figures: [
      ['31.4x', 'ok'],
      ['26.7x', 'ok'],
    ],
  },
  { text: 'A trailing P/E of 31.38 is rich.', figures: [['31.38', 'ok']] },
  { text: 'A forward P/E of 31.38 leaves no room for error.', figures: [['31.38', 'crossed']] },
  { text: 'On filed earnings the P/E is 17.7.', figures: [['17.7', 'ok']] },
  { text: 'Forward P/E 22.5 looks cheap.', figures: [['22.5', 'wrong']] },
  { text: 'Market cap of $38.44 billion.', figures: [['$38.44 billion', 'ok']] },
  { text: 'A market capitalisation of 52.1 B USD.', figures: [['52.1 B USD', 'wrong']] },
  {
    text: 'Price-to-sales of 0.84 and price-to-book of 5.21.',
    figures: [
      ['0.84', 'ok'],
      ['5.21', 'ok'],
    ],
  },
  { text: 'Price-to-book stands at 3.9.', figures: [['3.9', 'wrong']] },
  { text: 'A free-cash-flow yield of 12.4 % supports the valuation.', figures: [['12.4 %', 'ok']] },
  { text: 'The dividend yield is 0.51 %.', figures: [['0.51 %', 'ok']] },
  { text: 'Dividend yield of 1.8 % adds carry.', figures: [['1.8 %', 'wrong']] },
  { text: 'Debt/equity of 42.7 % is comfortable.', figures: [['42.7 %', 'ok']] },
  { text: 'Debt-to-equity at 87 % is a concern.', figures: [['87 %', 'wrong']] },
  { text: 'The profit margin is 14.2 %.', figures: [['14.2 %', 'ok']] },
];

/** Fundamentals by period: growth, margins, line items and period mix-ups. */
const fundamentals: ClaimCase[] = [
  { text: 'Revenue grew 18.6 % y/y in the latest quarter.', figures: [['18.6 %', 'ok']] },
  { text: 'Revenue grew 18 % y/y.', figures: [['18 %', 'wrong']] },
  { text: 'Revenue grew 19 % year over year.', figures: [['19 %', 'ok']] },
  { text: 'Revenue rose 15.2 % in the third fiscal quarter.', figures: [['15.2 %', 'ok']] },
  { text: 'Revenue rose 18.6 % in the third fiscal quarter.', figures: [['18.6 %', 'crossed']] },
  {
    text: 'Q4 revenue came in at $12.40 billion, up 18.6 % from a year earlier.',
    figures: [
      ['$12.40 billion', 'ok'],
      ['18.6 %', 'ok'],
    ],
  },
  {
    text: 'Fiscal 2026 revenue of $45.9 B grew 17.1 %.',
    figures: [
      ['$45.9 B', 'ok'],
      ['17.1 %', 'ok'],
    ],
  },
  { text: 'Fiscal 2025 revenue was $45.9 B.', figures: [['$45.9 B', 'crossed']] },
  {
    text: 'FY2025 revenue grew 18.4 % to $39.2 billion.',
    figures: [
      ['18.4 %', 'ok'],
      ['$39.2 billion', 'ok'],
    ],
  },
  {
    text: 'Full-year revenue rose 21 % to $45.9 B.',
    figures: [
      ['21 %', 'wrong'],
      ['$45.9 B', 'ok'],
    ],
  },
  { text: 'Revenue of $11.62 B in the prior quarter.', figures: [['$11.62 B', 'ok']] },
  { text: 'Sequentially, revenue grew 6.7 % q/q.', figures: [['6.7 %', 'derived']] },
  {
    text: 'Gross margin expanded to 45.0 % in the latest quarter from 44.1 %.',
    figures: [
      ['45.0 %', 'ok'],
      ['44.1 %', 'ok'],
    ],
  },
  { text: 'Gross margin of 47.5 % is best in class.', figures: [['47.5 %', 'wrong']] },
  { text: 'Operating margin reached 17.0 % last quarter.', figures: [['17.0 %', 'ok']] },
  { text: 'Operating margin of 15.8 % in the latest quarter.', figures: [['15.8 %', 'crossed']] },
  { text: 'Net margin of 14.2 % in the September quarter.', figures: [['14.2 %', 'ok']] },
  { text: 'The free-cash-flow margin was 12.3 % last quarter.', figures: [['12.3 %', 'derived']] },
  {
    text: 'Net income rose 27.5 % in fiscal 2026 to $6.12 billion.',
    figures: [
      ['27.5 %', 'derived'],
      ['$6.12 billion', 'ok'],
    ],
  },
  { text: 'Diluted EPS of $2.30 for the quarter.', figures: [['$2.30', 'ok']] },
  { text: 'Diluted EPS was $2.45 last quarter.', figures: [['$2.45', 'wrong']] },
  { text: 'Annual EPS reached $8.00.', figures: [['$8.00', 'ok']] },
  { text: 'Free cash flow of $1.52 B in the quarter.', figures: [['$1.52 B', 'ok']] },
  { text: 'Free cash flow of $2.1 B in the latest quarter.', figures: [['$2.1 B', 'wrong']] },
  {
    text: 'Cash of $6.12 B against total debt of $4.05 B.',
    figures: [
      ['$6.12 B', 'ok'],
      ['$4.05 B', 'ok'],
    ],
  },
  { text: 'The company filed its 10-K on 2026-11-06.', figures: [['2026-11-06', 'ok']] },
  { text: 'Results were released on Oct 29.', figures: [['Oct 29', 'ok']] },
];

/** A second batch, phrased the way desk notes and decision memos run on: longer sentences, several figures. */
const prose: ClaimCase[] = [
  {
    text: 'ACME closed the session at 141.85, holding above its 50-day (138.95) and 200-day (128.04) averages.',
    figures: [
      ['141.85', 'ok'],
      ['138.95', 'ok'],
      ['128.04', 'ok'],
    ],
  },
  {
    text: 'With the 50-day at 128.04 and the 200-day at 138.95, the averages have crossed bearishly.',
    figures: [
      ['128.04', 'crossed'],
      ['138.95', 'crossed'],
    ],
  },
  { text: 'Momentum is neutral: RSI 53.6, well off overbought.', figures: [['53.6', 'ok']] },
  { text: 'RSI(14) = 61.2 after the rally.', figures: [['61.2', 'wrong']] },
  { text: 'The ATR has expanded to $6.05 a day.', figures: [['$6.05', 'wrong']] },
  {
    text: 'ATR is running at 4.57, so a 2 ATR stop means about $9.14 of risk per share.',
    figures: [
      ['4.57', 'ok'],
      ['$9.14', 'derived'],
    ],
  },
  {
    text: 'Vol is contained: 20-day realized vol of 29.4 % versus 30 % on a one-year view.',
    figures: [
      ['29.4 %', 'ok'],
      ['30 %', 'ok'],
    ],
  },
  {
    text: 'Shares remain 12.5 % off the 52-week high of $162.15.',
    figures: [
      ['12.5 %', 'ok'],
      ['$162.15', 'ok'],
    ],
  },
  { text: 'The stock is 15 % below its 52-week high.', figures: [['15 %', 'wrong']] },
  {
    text: 'It has rallied 63 % from the 52-week low of $86.92.',
    figures: [
      ['63 %', 'ok'],
      ['$86.92', 'ok'],
    ],
  },
  {
    text: 'The close is about 2 % above the 50-day and nearly 11 % above the 200-day.',
    figures: [
      ['2 %', 'ok'],
      ['11 %', 'ok'],
    ],
  },
  { text: 'The close is about 11 % above the 50-day.', figures: [['11 %', 'crossed']] },
  {
    text: 'Over the past month the shares are up 6.3 %, but the three-month return is still -6.2 %.',
    figures: [
      ['6.3 %', 'ok'],
      ['-6.2 %', 'ok'],
    ],
  },
  { text: 'The 12-month return stands at +47.4 %.', figures: [['+47.4 %', 'ok']] },
  { text: 'The 12-month return stands at +37.4 %.', figures: [['+37.4 %', 'wrong']] },
  { text: 'Beta is 1.34 against the S&P 500.', figures: [['1.34', 'ok']] },
  { text: 'Average volume of roughly 3.1 M shares gives ample liquidity.', figures: [['3.1 M', 'ok']] },
  { text: 'Market value is about $38.4 B.', figures: [['$38.4 B', 'ok']] },
  { text: 'At 26.7 times forward earnings the shares are not cheap.', figures: [['26.7', 'ok']] },
  { text: 'Trailing P/E: 35.2.', figures: [['35.2', 'wrong']] },
  {
    text: 'Revenue for the September quarter was $12.4 B, up 18.6 % year on year.',
    figures: [
      ['$12.4 B', 'ok'],
      ['18.6 %', 'ok'],
    ],
  },
  {
    text: 'Q3 revenue of $12.4 billion grew 15.2 %.',
    figures: [
      ['$12.4 billion', 'ok'],
      ['15.2 %', 'none'],
    ],
  },
  {
    text: 'Fiscal 2026 net income was $6.12 B, or $8.00 per diluted share.',
    figures: [
      ['$6.12 B', 'ok'],
      ['$8.00', 'ok'],
    ],
  },
  { text: 'Fiscal 2026 EPS of $6.28 was a record.', figures: [['$6.28', 'crossed']] },
  { text: 'Gross margin for the year was 43.8 %.', figures: [['43.8 %', 'ok']] },
  {
    text: 'Operating margin improved to 17 % in the latest quarter from 15.8 % the quarter before.',
    figures: [
      ['17 %', 'ok'],
      ['15.8 %', 'ok'],
    ],
  },
  { text: 'Free cash flow yield of 8.5 % is compelling.', figures: [['8.5 %', 'wrong']] },
  {
    text: 'We buy with a limit at $139.57, half an ATR under the close, stop at $130.43 and target $155.57.',
    where: 'decision',
    figures: [
      ['$139.57', 'ok'],
      ['$130.43', 'ok'],
      ['$155.57', 'ok'],
    ],
  },
  {
    text: 'The stop at $130.43 is 2 ATR below the entry and the target 3.5 ATR above it, for a reward/risk of 1.75.',
    where: 'decision',
    figures: [
      ['$130.43', 'ok'],
      ['2 ATR', 'derived'],
      ['3.5 ATR', 'derived'],
      ['1.75', 'derived'],
    ],
  },
  { text: 'The stop at $132.50 sits just under support.', where: 'decision', figures: [['$132.50', 'wrong']] },
  {
    text: 'Target $158.00 sits below the analyst mean of $162.',
    where: 'decision',
    figures: [
      ['$158.00', 'wrong'],
      ['$162', 'ok'],
    ],
  },
  {
    text: 'The plan risks 6.55 % on the position, 0.26 % of the portfolio.',
    where: 'decision',
    figures: [
      ['6.55 %', 'derived'],
      ['0.26 %', 'derived'],
    ],
  },
  {
    text: 'The entry at $139.57 is 1.6 % below the last price.',
    where: 'decision',
    figures: [
      ['$139.57', 'ok'],
      ['1.6 %', 'derived'],
    ],
  },
  { text: 'The target is $13.72 above the close.', where: 'decision', figures: [['$13.72', 'derived']] },
  { text: 'The target is $16.50 above the entry.', where: 'decision', figures: [['$16.50', 'wrong']] },
  {
    text: 'Upside to the $155.57 target is 11.5 % from the limit.',
    where: 'decision',
    figures: [
      ['$155.57', 'ok'],
      ['11.5 %', 'derived'],
    ],
  },
  { text: 'The stop is 2.5 ATR below the current price.', where: 'decision', figures: [['2.5 ATR', 'derived']] },
  { text: 'Reward-to-risk of 1.2 from the close.', where: 'decision', figures: [['1.2', 'derived']] },
  {
    text: 'A position of 4 % with conviction at 64 / 100.',
    where: 'decision',
    figures: [
      ['4 %', 'ok'],
      ['64', 'ok'],
    ],
  },
  {
    text: 'Last price $141.85; RSI(14)=53.6; ATR(14)=$4.57.',
    figures: [
      ['$141.85', 'ok'],
      ['53.6', 'ok'],
      ['$4.57', 'ok'],
    ],
  },
  {
    text: 'The 52-week range is $86.92 to $162.15.',
    figures: [
      ['$86.92', 'ok'],
      ['$162.15', 'ok'],
    ],
  },
  {
    text: '20d vol 29.4%, 1y vol 30.0%.',
    figures: [
      ['29.4%', 'ok'],
      ['30.0%', 'ok'],
    ],
  },
  {
    text: 'The stock is trading 10.8% above its 200-day moving average and 2.1% above the 50-day.',
    figures: [
      ['10.8%', 'ok'],
      ['2.1%', 'ok'],
    ],
  },
  { text: 'It trades 2.1% above its 200-day moving average.', figures: [['2.1%', 'crossed']] },
  { text: 'RSI of 53.63 sits in neutral territory.', figures: [['53.63', 'ok']] },
  { text: 'RSI of 63.5 sits near overbought.', figures: [['63.5', 'wrong']] },
  {
    text: 'The stop is placed 2×ATR(14) below the entry at $130.43.',
    where: 'decision',
    figures: [
      ['2×ATR(14)', 'derived'],
      ['$130.43', 'ok'],
    ],
  },
  {
    text: 'Our take-profit of $155.57 lies 3.5 ATR above the limit price.',
    where: 'decision',
    figures: [
      ['$155.57', 'ok'],
      ['3.5 ATR', 'derived'],
    ],
  },
  { text: 'Reward:risk of 1.75 clears our 1.5 hurdle.', where: 'decision', figures: [['1.75', 'derived']] },
  {
    text: 'The stop at $130.43 is 8.1% below the current price.',
    where: 'decision',
    figures: [
      ['$130.43', 'ok'],
      ['8.1%', 'derived'],
    ],
  },
  {
    text: 'The stop at $130.43 is 12.1% below the current price.',
    where: 'decision',
    figures: [
      ['$130.43', 'ok'],
      ['12.1%', 'wrong'],
    ],
  },
  {
    text: 'A limit of $139.57 gives a 1.6% discount to the close.',
    where: 'decision',
    figures: [
      ['$139.57', 'ok'],
      ['1.6%', 'derived'],
    ],
  },
  {
    text: 'The analyst mean target of $162 sits 14.2% above the last close.',
    figures: [
      ['$162', 'ok'],
      ['14.2%', 'derived'],
    ],
  },
  {
    text: 'Consensus sees $162, or 20% upside.',
    figures: [
      ['$162', 'ok'],
      ['20%', 'wrong'],
    ],
  },
  {
    text: 'Latest-quarter revenue of $12.4B was up 18.6% y/y, and gross margin reached 45%.',
    figures: [
      ['$12.4B', 'ok'],
      ['18.6%', 'ok'],
      ['45%', 'ok'],
    ],
  },
  { text: 'In the June quarter revenue was $11.6 B.', figures: [['$11.6 B', 'ok']] },
  {
    text: 'FY26 revenue was $45.9B, up 17% on FY25.',
    figures: [
      ['$45.9B', 'ok'],
      ['17%', 'ok'],
    ],
  },
  { text: 'FY26 revenue was $49.2B.', figures: [['$49.2B', 'wrong']] },
  {
    text: 'EPS for fiscal 2026 came to $8.00, up 27.4 %.',
    figures: [
      ['$8.00', 'ok'],
      ['27.4 %', 'derived'],
    ],
  },
  { text: 'Trailing twelve-month P/E of 17.7 on filed EPS.', figures: [['17.7', 'ok']] },
  { text: 'Maximum drawdown in the last year: 27.1%.', figures: [['27.1%', 'ok']] },
  { text: 'A drawdown of 35% last spring tested holders.', figures: [['35%', 'wrong']] },
  {
    text: 'The one-week return is +0.2%, the one-day +0.8%.',
    figures: [
      ['+0.2%', 'ok'],
      ['+0.8%', 'ok'],
    ],
  },
  { text: 'Over six months the stock is up 28.7%.', figures: [['28.7%', 'ok']] },
  { text: 'ATR as a share of price: 3.2%.', figures: [['3.2%', 'ok']] },
  { text: 'Beta stands at 1.6 versus the market.', figures: [['1.6', 'wrong']] },
  { text: 'We risk 0.26% of equity on the trade.', where: 'decision', figures: [['0.26%', 'derived']] },
  {
    text: 'Position: 4% of NAV; conviction: 64/100.',
    where: 'decision',
    figures: [
      ['4%', 'ok'],
      ['64', 'ok'],
    ],
  },
  {
    text: 'Support at $132.02 is 7.4% below the close.',
    figures: [
      ['$132.02', 'ok'],
      ['7.4%', 'derived'],
    ],
  },
  { text: 'Two of the three averages slope up; we review after 10 sessions.', figures: [] },
  { text: 'The company employs 12,000 people across 9 plants.', figures: [['12,000', 'none']] },
];

/** Terse notations: hyphenated multiples, abbreviations, levels with their distance in parentheses. */
const terse: ClaimCase[] = [
  {
    text: 'A 2-ATR stop at $130.43 keeps risk contained.',
    where: 'decision',
    figures: [
      ['2-ATR', 'derived'],
      ['$130.43', 'ok'],
    ],
  },
  { text: 'The 52-wk high of $162.15 is the next hurdle.', figures: [['$162.15', 'ok']] },
  { text: 'The 52-wk high of $152.15 is the next hurdle.', figures: [['$152.15', 'wrong']] },
  {
    text: 'MA(50) at 138.95 and SMA-200 at 128.04.',
    figures: [
      ['138.95', 'ok'],
      ['128.04', 'ok'],
    ],
  },
  { text: 'The 200-day SMA stands at $138.95.', figures: [['$138.95', 'crossed']] },
  {
    text: 'RSI(14) came in at 53.6 while the 14-day ATR was $4.57.',
    figures: [
      ['53.6', 'ok'],
      ['$4.57', 'ok'],
    ],
  },
  { text: 'The shares are down 12.5% from the 52-week high.', figures: [['12.5%', 'ok']] },
  { text: 'The shares are up 12.5% from the 52-week high.', figures: [['12.5%', 'wrong']] },
  {
    text: 'Stop: $130.43 (-6.5% from entry).',
    where: 'decision',
    figures: [
      ['$130.43', 'ok'],
      ['-6.5%', 'derived'],
    ],
  },
  {
    text: 'Target: $155.57 (+11.5% from entry).',
    where: 'decision',
    figures: [
      ['$155.57', 'ok'],
      ['+11.5%', 'derived'],
    ],
  },
  {
    text: 'Target: $155.57 (+9.5% from entry).',
    where: 'decision',
    figures: [
      ['$155.57', 'ok'],
      ['+9.5%', 'wrong'],
    ],
  },
  {
    text: 'Entry $139.57 / stop $130.43 / target $155.57, R:R 1.75.',
    where: 'decision',
    figures: [
      ['$139.57', 'ok'],
      ['$130.43', 'ok'],
      ['$155.57', 'ok'],
      ['1.75', 'derived'],
    ],
  },
  { text: 'Revenue in Q4 FY26 reached $12.4 billion.', figures: [['$12.4 billion', 'ok']] },
  { text: 'Revenue in Q1 FY26 reached $12.4 billion.', figures: [['$12.4 billion', 'crossed']] },
  {
    text: 'Operating income of $2.1 B in the latest quarter, a 17 % margin.',
    figures: [
      ['$2.1 B', 'ok'],
      ['17 %', 'ok'],
    ],
  },
  {
    text: 'One-month realised volatility of 29.4 % is below the annual 30 %.',
    figures: [
      ['29.4 %', 'ok'],
      ['30 %', 'ok'],
    ],
  },
  { text: 'The 3-month decline of 6.2 % has reset positioning.', figures: [['6.2 %', 'ok']] },
];

/** Numbers that are no claims: counts, names, scores, horizons. */
const noise: ClaimCase[] = [
  { text: 'Trend score 0.80 on a 0-to-1 scale; 3 of 3 averages are below the close.', figures: [['0.80', 'none']] },
  { text: 'We hold for 4–8 weeks and review in 5 sessions.', figures: [] },
  { text: 'The EU review covers the CB-7 arm and the S&P 500 is flat.', figures: [] },
  { text: 'Sentiment scores 0.68 (0 very negative, 1 very positive).', figures: [['0.68', 'none']] },
  { text: '18 analysts cover the name; 12 rate it a buy.', figures: [] },
  { text: 'The Q3 call is at 17:00 UTC; see https://example.com/2026/11/05/results.', figures: [] },
  { text: 'Risk score 0.65 (0 low, 1 high), driven by volatility.', figures: [['0.65', 'none']] },
  { text: 'Overall technical score 0.66.', figures: [['0.66', 'none']] },
  { text: 'The plant adds 40 robots a week from 2027.', figures: [] },
  { text: 'A 10 % move in either direction would be unusual.', figures: [['10 %', 'none']] },
];

/** Readings in parentheses, look-backs before the figure, level ± k ATR, hypotheticals (issue 40 review). */
const lookBacks: ClaimCase[] = [
  { text: 'On the daily chart the 200-day average (128.04) keeps rising.', figures: [['128.04', 'ok']] },
  { text: 'Momentum is firm: RSI (62.5) and climbing.', figures: [['62.5', 'wrong']] },
  { text: 'The average true range (4.57) argues for a wide stop.', figures: [['4.57', 'ok']] },
  { text: 'RSI 14 reads 58 this morning.', figures: [['58', 'wrong']] },
  {
    text: 'It sits above both the 50-day (128.04) and the 200-day (138.95).',
    figures: [
      ['128.04', 'crossed'],
      ['138.95', 'crossed'],
    ],
  },
  { text: 'Realised volatility over the past year stands at 29.99 %.', figures: [['29.99 %', 'ok']] },
  { text: 'Realised volatility over the past year stands at 29.40 %.', figures: [['29.40 %', 'crossed']] },
  { text: 'Vol (20d): 29.99 %, elevated.', figures: [['29.99 %', 'crossed']] },
  { text: 'In the last six months shares have added 47.39 %.', figures: [['47.39 %', 'crossed']] },
  { text: 'Year to date the stock has returned 47.39 %.', figures: [['47.39 %', 'wrong']] },
  { text: 'The 200d MA, at 138.95, is rising.', figures: [['138.95', 'crossed']] },
  { text: 'Price is holding above the 200-day at 138.95.', figures: [['138.95', 'crossed']] },
  { text: 'The worst drawdown over the past year was -12.52 %.', figures: [['-12.52 %', 'crossed']] },
  { text: 'Should the market turn, a 15 % drawdown would not surprise us.', figures: [['15 %', 'none']] },
  {
    text: 'Our take-profit at 155.57 leaves 11.46 % of upside from the entry.',
    where: 'decision',
    figures: [
      ['155.57', 'ok'],
      ['11.46 %', 'derived'],
    ],
  },
  { text: 'Entry minus one ATR comes to 135.00.', where: 'decision', figures: [['135.00', 'derived']] },
  { text: 'The last close plus 2 ATR is 150.99.', where: 'decision', figures: [['150.99', 'derived']] },
  { text: 'The last close plus 2 ATR is 152.50.', where: 'decision', figures: [['152.50', 'wrong']] },
];

export const claimCases: readonly ClaimCase[] = [
  ...levels,
  ...lookBacks,
  ...indicators,
  ...returns,
  ...distances,
  ...decision,
  ...valuation,
  ...fundamentals,
  ...prose,
  ...terse,
  ...noise,
];
