/** How the snapshot block writes its numbers: every value with its unit, every gap said out loud. */

export const notAvailable = 'not available — do not estimate';

export function isNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Prices: 4 decimals below 2 (currencies, penny stocks), else 2; `minimumDecimals` keeps
 * a price converted from pence to the penny's precision (308.8 GBp is 3.0880 GBP).
 */
export function formatPrice(value: number | null | undefined, unit: string, minimumDecimals = 2): string {
  if (!isNumber(value)) return notAvailable;
  const decimals = Math.max(Math.abs(value) < 2 ? 4 : 2, minimumDecimals);
  return `${value.toFixed(decimals)} ${unit}`;
}

/** A price difference (a day's change) with the decimals of the price it changes, so −1.75 on a 270 stock is not shown as −1.7532. */
export function formatPriceChange(
  value: number | null | undefined,
  price: number | null | undefined,
  unit: string,
): string {
  if (!isNumber(value)) return notAvailable;
  const decimals = Math.abs(isNumber(price) ? price : value) < 2 ? 4 : 2;
  return `${value > 0 ? '+' : ''}${value.toFixed(decimals)} ${unit}`;
}

const scales: ReadonlyArray<{ size: number; suffix: string }> = [
  { size: 1e12, suffix: 'T' },
  { size: 1e9, suffix: 'B' },
  { size: 1e6, suffix: 'M' },
  { size: 1e3, suffix: 'K' },
];

/** The scale a large quantity is written in (trillions down to thousands); undefined below a thousand. */
export function scaleOf(value: number): { size: number; suffix: string } | undefined {
  return scales.find(({ size }) => Math.abs(value) >= size);
}

/** Large quantities with a scale: 3.64 T, 54.84 M, 12.30 K. */
export function formatQuantity(value: number | null | undefined, unit: string): string {
  if (!isNumber(value)) return notAvailable;
  const scale = scaleOf(value);
  return scale ? `${(value / scale.size).toFixed(2)} ${scale.suffix} ${unit}` : `${Math.round(value)} ${unit}`;
}

/** A fraction as a percentage; `signed` adds + to gains (returns, distances). */
export function formatFraction(value: number | null | undefined, signed = false): string {
  if (!isNumber(value)) return notAvailable;
  return formatPercent(value * 100, signed);
}

export function formatPercent(value: number | null | undefined, signed = false): string {
  if (!isNumber(value)) return notAvailable;
  const sign = signed && value > 0 ? '+' : '';
  return `${sign}${value.toFixed(2)} %`;
}

export function formatNumber(value: number | null | undefined, decimals = 2): string {
  if (!isNumber(value)) return notAvailable;
  return value.toFixed(decimals);
}
