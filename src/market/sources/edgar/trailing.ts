import type { ValuationInput, ValuationInputs } from '../../fundamentals-valuation.js';
import type { KnownSeries, KnownValue } from './as-filed.js';
import type { SeriesName } from './concepts.js';
import { addDays, durationValue, spanDays, type Span } from './periods.js';

/**
 * Trailing twelve months at D: the last fiscal year, plus the year to date filed since it,
 * minus the same span a year earlier (the standard TTM). With no filing after the fiscal
 * year, the fiscal year itself.
 */

/** The longest year-to-date span after the fiscal year, and the same span a year earlier. */
function yearToDate(
  series: KnownSeries,
  name: SeriesName,
  year: Span,
): { current: KnownValue; prior: KnownValue } | null {
  const after = [...series[name].values()]
    .filter((value) => value.start === addDays(year.end, 1) && value.end > year.end)
    .sort((left, right) => right.end.localeCompare(left.end));
  for (const current of after) {
    const length = spanDays(current.start!, current.end);
    const prior = [...series[name].values()].find(
      (value) => value.start === year.start && Math.abs(spanDays(value.start, value.end) - length) <= 7,
    );
    if (prior) return { current, prior };
  }
  return null;
}

export function trailingTwelveMonths(
  series: KnownSeries,
  name: SeriesName,
  year: Span | undefined,
): ValuationInput | null {
  if (!year) return null;
  const annual = durationValue(series, name, year.start, year.end);
  if (!annual) return null;
  const ytd = yearToDate(series, name, year);
  if (!ytd) return { value: annual.value, basis: `fiscal year to ${year.end}` };
  return {
    value: annual.value + ytd.current.value - ytd.prior.value,
    basis: `12 months to ${ytd.current.end}`,
  };
}

function freeCashFlowTtm(series: KnownSeries, year: Span | undefined): ValuationInput | null {
  const operating = trailingTwelveMonths(series, 'operatingCashFlow', year);
  const capex = trailingTwelveMonths(series, 'capex', year);
  if (!operating || !capex) return null;
  return { value: operating.value - capex.value, basis: operating.basis };
}

function latestInstant(series: KnownSeries, name: SeriesName): KnownValue | undefined {
  return [...series[name].values()].sort((left, right) => right.end.localeCompare(left.end))[0];
}

const accepted = (value: KnownValue) => `${value.form} accepted ${value.acceptedAt.slice(0, 10)}`;

export function valuationInputs(
  series: KnownSeries,
  latestYear: Span | undefined,
  close: number | null,
  currency: string,
): ValuationInputs {
  const shares = latestInstant(series, 'coverShares');
  const equity = latestInstant(series, 'equity');
  return {
    currency,
    close,
    shares: shares ? { value: shares.value, basis: `cover page as of ${shares.end}, ${accepted(shares)}` } : null,
    ttmEpsDiluted: trailingTwelveMonths(series, 'epsDiluted', latestYear),
    ttmRevenue: trailingTwelveMonths(series, 'revenue', latestYear),
    ttmFreeCashFlow: freeCashFlowTtm(series, latestYear),
    equity: equity ? { value: equity.value, basis: `at ${equity.end}, ${accepted(equity)}` } : null,
  };
}
