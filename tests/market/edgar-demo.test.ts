import { describe, expect, it } from 'vitest';
import { demoFundamentals, demoFundamentalsLabel } from '../../src/market/fundamentals-demo.js';
import { fundamentalsLines } from '../../src/market/fundamentals-text.js';

/** The demo's synthetic ACME fundamentals: labelled synthetic, and as filed at the demo's close. */

describe('demo fundamentals', () => {
  const asOf = '2026-11-27T21:00:00.000Z';

  it('are labelled synthetic and follow the as-filed rule', () => {
    const fundamentals = demoFundamentals('ACME', asOf, 141.85)!;
    expect(fundamentals.vendorLabel).toBe(demoFundamentalsLabel);
    expect(fundamentals.vendorLabel).toContain('synthetic');
    expect(fundamentals.quarters.map((period) => period.periodEnd)).toEqual([
      '2026-09-30',
      '2026-06-30',
      '2026-03-31',
      '2025-12-31',
    ]);
    expect(fundamentals.years.map((period) => period.periodEnd)).toEqual(['2025-12-31', '2024-12-31', '2023-12-31']);
    const pe = fundamentals.valuation.find((figure) => figure.name === 'peTrailing')!;
    // TTM diluted EPS: 4.12 + (1.10 + 1.22 + 1.24) − (9 months of 2025, not filed as such: the year minus Q4).
    expect(pe.value).toBeGreaterThan(25);
    const text = fundamentalsLines({ fundamentals, day: '2026-11-27' }).join('\n');
    expect(text).toContain('synthetic demo data');
    expect(text).toContain('8-K accepted 2026-11-12 21:30 UTC: items 5.02 officer or director change');
    expect(text).toContain('Form 4 insider filings in those 90 days: 2');
    // Before the third quarter's 10-Q, that quarter is not there.
    expect(demoFundamentals('ACME', '2026-10-28T20:00:00.000Z', 130)!.quarters[0]!.periodEnd).toBe('2026-06-30');
  });

  it('exist for ACME only', () => {
    expect(demoFundamentals('GLBX', asOf, 50)).toBeUndefined();
  });
});
