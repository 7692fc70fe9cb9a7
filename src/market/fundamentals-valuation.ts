import type { ValuationFigure } from './fundamentals-types.js';

/**
 * Valuation at D's close, from filed figures and the close as traded on D, each figure
 * with its inputs in words. Pure: the inputs are already on D's share basis.
 */

/** A filed amount with the span or instant it covers, in words ("12 months to 2024-06-29"). */
export interface ValuationInput {
  value: number;
  /** How it was obtained, e.g. "12 months to 2024-06-29" or "at 2024-06-29, 10-Q accepted 2024-08-02". */
  basis: string;
}

export interface ValuationInputs {
  currency: string;
  /** The close as traded on D (major units); null when the snapshot has no price. */
  close: number | null;
  /** Cover-page shares outstanding. */
  shares: ValuationInput | null;
  ttmEpsDiluted: ValuationInput | null;
  ttmRevenue: ValuationInput | null;
  ttmFreeCashFlow: ValuationInput | null;
  equity: ValuationInput | null;
}

const notMeaningful = 'not meaningful';

function amount(value: number): string {
  const size = Math.abs(value);
  if (size >= 1e12) return `${(value / 1e12).toFixed(2)} T`;
  if (size >= 1e9) return `${(value / 1e9).toFixed(2)} B`;
  if (size >= 1e6) return `${(value / 1e6).toFixed(2)} M`;
  return value.toFixed(2);
}

function missing(name: ValuationFigure['name'], what: string): ValuationFigure {
  return { name, value: null, note: `${what} not available`, inputs: '' };
}

/** Price multiple of a positive denominator; a negative or zero one is "not meaningful". */
function multiple(
  name: ValuationFigure['name'],
  numerator: { value: number; text: string },
  denominator: ValuationInput | null,
  label: string,
): ValuationFigure {
  if (!denominator) return missing(name, label);
  const inputs = `${numerator.text} ÷ ${label} ${amount(denominator.value)} (${denominator.basis})`;
  if (denominator.value <= 0) return { name, value: null, note: `${notMeaningful} (${label} is negative)`, inputs };
  return { name, value: numerator.value / denominator.value, inputs };
}

export function valuationFigures(inputs: ValuationInputs): ValuationFigure[] {
  const { close, shares, currency } = inputs;
  if (close === null || !(close > 0))
    return (['marketCap', 'peTrailing', 'priceToSales', 'priceToBook', 'fcfYield'] as const).map((name) =>
      missing(name, 'the close'),
    );
  const closeText = `close ${close.toFixed(2)} ${currency}`;
  const pe = multiple('peTrailing', { value: close, text: closeText }, inputs.ttmEpsDiluted, 'TTM diluted EPS');
  if (!shares)
    return [
      missing('marketCap', 'shares outstanding'),
      pe,
      ...(['priceToSales', 'priceToBook', 'fcfYield'] as const).map((name) => missing(name, 'market cap')),
    ];
  const cap = shares.value * close;
  const capText = `market cap ${amount(cap)} ${currency}`;
  const capFigure: ValuationFigure = {
    name: 'marketCap',
    value: cap,
    inputs: `${amount(shares.value)} shares (${shares.basis}) × ${closeText}`,
  };
  const fcf = inputs.ttmFreeCashFlow;
  const fcfYield: ValuationFigure = fcf
    ? {
        name: 'fcfYield',
        value: fcf.value / cap,
        inputs: `TTM free cash flow ${amount(fcf.value)} (${fcf.basis}) ÷ ${capText}`,
      }
    : missing('fcfYield', 'TTM free cash flow');
  return [
    capFigure,
    pe,
    multiple('priceToSales', { value: cap, text: capText }, inputs.ttmRevenue, 'TTM revenue'),
    multiple('priceToBook', { value: cap, text: capText }, inputs.equity, 'equity'),
    fcfYield,
  ];
}
