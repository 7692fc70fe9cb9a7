import { describe, expect, it } from 'vitest';
import { fundamentalsLines } from '../../src/market/fundamentals-text.js';
import { acceptedInstant } from '../../src/market/sources/edgar/acceptance.js';
import { companyFactsSchema } from '../../src/market/sources/edgar/documents.js';
import { aapl, aaplAsOf, closeOf, figure } from './support/edgar-build.js';
import { fairValue, hasRecordedEdgar, skipMessage } from './support/edgar-recorded.js';

/**
 * The as-filed rule on SEC's real AAPL documents (FairValue's companyfacts and submissions,
 * ../shared/fixtures/recorded/edgar): what a run as of a day's close sees, and nothing the
 * market learned later.
 */

if (!hasRecordedEdgar) console.info(`market: ${skipMessage}`);

const billions = (value: number | undefined) => (value === undefined ? undefined : Math.round(value / 1e6));

describe.skipIf(!hasRecordedEdgar)('EDGAR as filed (recorded AAPL)', () => {
  it('reads acceptanceDateTime as New York time, whatever its Z says', () => {
    expect(acceptedInstant('2019-07-31T16:31:53.000Z')).toBe('2019-07-31T20:31:53.000Z');
    expect(acceptedInstant('2024-11-01T06:01:36.000Z')).toBe('2024-11-01T10:01:36.000Z');
    expect(acceptedInstant('2020-01-29T16:30:00.000Z')).toBe('2020-01-29T21:30:00.000Z');
    const quarterly = aapl().filings.find((filing) => filing.accession === '0000320193-19-000076');
    expect(quarterly).toMatchObject({ form: '10-Q', filingDate: '2019-07-31', acceptedAt: '2019-07-31T20:31:53.000Z' });
  });

  it('shows a restatement only after its acceptance, marked with the first value', () => {
    // FY2009 revenue: 36,537 M in the 10-K of 2009-10-27, 42,905 M in the 10-K/A of 2010-01-25.
    const before = figure(aaplAsOf('2010-01-22'), 'years', '2009-09-26', 'revenue');
    expect(billions(before?.value)).toBe(36_537);
    expect(before?.form).toBe('10-K');
    expect(before?.restated).toBeUndefined();
    // The 10-K/A's time is on the index page not recorded: it counts from the end of its filing day.
    expect(billions(figure(aaplAsOf('2010-01-25'), 'years', '2009-09-26', 'revenue')?.value)).toBe(36_537);
    const after = figure(aaplAsOf('2010-01-26'), 'years', '2009-09-26', 'revenue');
    expect(billions(after?.value)).toBe(42_905);
    expect(after?.form).toBe('10-K/A');
    expect(after?.restated).toMatchObject({ firstForm: '10-K' });
    expect(billions(after?.restated?.firstValue)).toBe(36_537);
    const eps = figure(aaplAsOf('2010-01-26'), 'years', '2009-09-26', 'epsDiluted');
    expect(eps).toMatchObject({ value: 9.08, restated: { firstValue: 6.29 } });
  });

  it('keeps a 10-Q accepted at 16:31 out of that day’s run, though `filed` is that day', () => {
    const rows = JSON.parse(fairValue.facts()).facts['us-gaap'].RevenueFromContractWithCustomerExcludingAssessedTax
      .units.USD as Array<{ accn: string; filed: string; start: string; end: string }>;
    expect(rows.some((row) => row.accn === '0000320193-19-000076' && row.filed === '2019-07-31')).toBe(true);
    const sameDay = aaplAsOf('2019-07-31');
    expect(sameDay.quarters[0]?.periodEnd).toBe('2019-03-30');
    expect(sameDay.quarters.map((period) => period.periodEnd)).not.toContain('2019-06-29');
    const nextDay = aaplAsOf('2019-08-01');
    expect(nextDay.quarters[0]?.periodEnd).toBe('2019-06-29');
    expect(figure(nextDay, 'quarters', '2019-06-29', 'revenue')).toMatchObject({
      value: 53_809_000_000,
      form: '10-Q',
      acceptedAt: '2019-07-31T20:31:53.000Z',
    });
    // One filing, several spans with the same end: the quarter, not the nine months (196,134 M).
    expect(nextDay.quarters[0]?.periodStart).toBe('2019-03-31');
  });

  it('leaves out a period that has ended but is not filed yet, without naming it', () => {
    // FY2019 ended 2019-09-28; its 10-K was accepted 2019-10-30.
    const fundamentals = aaplAsOf('2019-10-15');
    expect(fundamentals.years[0]?.periodEnd).toBe('2018-09-29');
    expect(fundamentals.quarters[0]?.periodEnd).toBe('2019-06-29');
    const text = fundamentalsLines({ fundamentals, day: '2019-10-15' }).join('\n');
    expect(text).not.toContain('2019-09-28');
    expect(aaplAsOf('2019-10-31').years[0]?.periodEnd).toBe('2019-09-28');
  });

  it('names a fiscal year by its dates, though the filings tag it with their own fy', () => {
    const rows = JSON.parse(fairValue.facts()).facts['us-gaap'].SalesRevenueNet.units.USD as Array<{
      start: string;
      end: string;
      fy: number;
    }>;
    const tags = new Set(
      rows.filter((row) => row.end === '2009-09-26' && row.start === '2008-09-28').map((row) => row.fy),
    );
    expect([...tags].sort()).toEqual([2009, 2010, 2011]);
    const fundamentals = aaplAsOf('2011-11-01');
    expect(fundamentals.years.map((period) => period.label)).toEqual([
      'FY ending 2011-09-24',
      'FY ending 2010-09-25',
      'FY ending 2009-09-26',
    ]);
    expect(billions(figure(fundamentals, 'years', '2009-09-26', 'revenue')?.value)).toBe(42_905);
    const growth = fundamentals.years[0]!.revenueGrowthYoY!;
    expect(growth).toBeCloseTo(108_249 / 65_225 - 1, 4);
  });

  it('gives the same output with every `frame` field removed', () => {
    const raw = JSON.parse(fairValue.facts()) as {
      facts: Record<string, Record<string, { units: Record<string, Array<Record<string, unknown>>> }>>;
    };
    let removed = 0;
    for (const taxonomy of Object.values(raw.facts))
      for (const tag of Object.values(taxonomy))
        for (const rows of Object.values(tag.units))
          for (const row of rows)
            if ('frame' in row) {
              delete row.frame;
              removed += 1;
            }
    expect(removed).toBeGreaterThan(1000);
    const stripped = companyFactsSchema.parse(raw);
    for (const day of ['2010-01-26', '2015-02-02', '2019-08-01', '2024-11-04'])
      expect(aaplAsOf(day, { facts: stripped, close: 200 })).toEqual(aaplAsOf(day, { close: 200 }));
  });

  it('stays within the block budget and says each figure’s filing', () => {
    const fundamentals = aaplAsOf('2024-11-04', { close: 222.01 });
    const text = fundamentalsLines({ fundamentals, day: '2024-11-04' }).join('\n');
    expect(text.length).toBeLessThan(10_000);
    expect(text).toContain('10-K accepted 2024-11-01 10:01 UTC');
    expect(text).toMatch(/Trailing P\/E: \d+\.\d\d = close 222\.01 USD ÷ TTM diluted EPS 6\.0\d/);
    expect(closeOf('2024-11-04')).toBe('2024-11-04T21:00:00.000Z');
  });
});
