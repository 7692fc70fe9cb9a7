import { describe, expect, it } from 'vitest';
import type { Fundamentals } from '../../src/market/fundamentals-types.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { makeMarket, makeResult } from '../support/results.js';

const fundamentals: Fundamentals = {
  vendor: 'sec-edgar',
  vendorLabel: 'SEC EDGAR (as filed)',
  currency: 'USD',
  quarters: [
    {
      kind: 'quarter',
      periodStart: '2024-03-31',
      periodEnd: '2024-06-29',
      label: 'Q ending 2024-06-29',
      figures: [
        {
          concept: 'revenue',
          value: 85_777_000_000,
          unit: 'currency',
          periodStart: '2024-03-31',
          periodEnd: '2024-06-29',
          form: '10-Q',
          acceptedAt: '2024-08-01T22:03:00.000Z',
        },
        {
          concept: 'epsDiluted',
          value: 1.4,
          unit: 'per-share',
          periodStart: '2024-03-31',
          periodEnd: '2024-06-29',
          form: '10-Q',
          acceptedAt: '2024-08-01T22:03:00.000Z',
        },
      ],
      revenueGrowthYoY: 0.0487,
      operatingMargin: 0.2956,
    },
  ],
  years: [],
  valuation: [
    { name: 'marketCap', value: 3.36e12, inputs: '' },
    { name: 'peTrailing', value: null, note: 'not meaningful (TTM diluted EPS is negative)', inputs: '' },
  ],
  filings: [],
  insiderFilings90d: 3,
  notes: [],
};

describe('the report’s fundamentals table', () => {
  it('shows each period with its headline figures and filing, then the valuation', () => {
    const markdown = renderMarkdown(makeResult({ market: makeMarket({ fundamentals }) }));
    expect(markdown).toContain('Fundamentals (SEC EDGAR (as filed), USD)');
    expect(markdown).toMatch(
      /Q ending 2024-06-29 \| 85\.78 B \| 4\.9 % \| 29\.6 % \| — \| 1\.40 \| — \| 10-Q 2024-08-01/,
    );
    expect(markdown).toContain('market cap 3.36 T USD · P/E not meaningful (TTM diluted EPS is negative)');
  });

  it('adds nothing for a snapshot without fundamentals', () => {
    expect(renderMarkdown(makeResult())).not.toContain('Fundamentals (');
  });
});
