import { describe, expect, it } from 'vitest';
import { isCalendarDay, unscorableReason } from '../../src/evaluate/validate.js';
import { makeMarket, makeResult } from '../support/results.js';

describe('a saved run that can be placed on the calendar', () => {
  it('isCalendarDay: real days only, leap years by rule', () => {
    for (const day of ['2025-06-02', '2024-02-29', '2000-02-29', '2025-12-31']) expect(isCalendarDay(day)).toBe(true);
    for (const day of ['2025-13-45', '2025-02-29', '1900-02-29', '2025-04-31', '2025-00-10', '2025-6-2', 'garbage'])
      expect(isCalendarDay(day)).toBe(false);
  });

  it('names the broken field, quoting a long value short', () => {
    expect(unscorableReason(makeResult())).toBeNull();
    expect(unscorableReason(makeResult({ asOf: 'garbage' }))).toBe("its asOf 'garbage' is not a date");
    expect(unscorableReason(makeResult({ asOf: 'x'.repeat(5000) }))).toMatch(/\(5,000 characters\) is not a date$/);
    const bars = makeMarket().bars.map((bar, index) => (index === 3 ? { ...bar, date: '2025-13-45' } : bar));
    expect(unscorableReason(makeResult({ market: makeMarket({ bars }) }))).toBe(
      "a saved bar is dated '2025-13-45', not a calendar day",
    );
  });
});
