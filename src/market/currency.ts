import type { UnitConversion } from './source.js';
import type { Bar, Identity, QuoteStats } from './types.js';

/**
 * Minor currency units as exchanges quote them: London in pence (`GBp`, also written
 * `GBX`), Johannesburg in cents (`ZAc`), Tel Aviv in agorot (`ILA`). Everything past a
 * source is in major units, so a price in pence never sits beside a market cap in pounds.
 */
const minorUnits: Readonly<Record<string, { currency: string; factor: number; unit: string }>> = {
  GBp: { currency: 'GBP', factor: 0.01, unit: 'pence' },
  GBX: { currency: 'GBP', factor: 0.01, unit: 'pence' },
  ZAc: { currency: 'ZAR', factor: 0.01, unit: 'cents' },
  ZAC: { currency: 'ZAR', factor: 0.01, unit: 'cents' },
  ILA: { currency: 'ILS', factor: 0.01, unit: 'agorot' },
};

/** The conversion for a currency code in minor units; undefined for a major one (or none). */
export function minorUnitOf(code: string | null | undefined): UnitConversion | undefined {
  const minor = code ? minorUnits[code] : undefined;
  return minor && code ? { quoted: code, currency: minor.currency, factor: minor.factor } : undefined;
}

/** "GBp (pence)": the unit as quoted, in words. */
export function describeMinorUnit(conversion: UnitConversion): string {
  const unit = minorUnits[conversion.quoted]?.unit;
  return unit ? `${conversion.quoted} (${unit})` : conversion.quoted;
}

function scale(value: number | null, factor: number): number | null {
  // Rounded to a few decimals so 1259.5 pence reads 12.595, not 12.595000000000001.
  return value === null ? null : Math.round(value * factor * 1e8) / 1e8;
}

export function barsInMajorUnits(bars: readonly Bar[], factor: number): Bar[] {
  return bars.map((bar) => ({
    ...bar,
    open: scale(bar.open, factor),
    high: scale(bar.high, factor),
    low: scale(bar.low, factor),
    close: scale(bar.close, factor),
    adjClose: scale(bar.adjClose, factor),
  }));
}

/**
 * Prices in minor units → major units, the currency renamed. Market cap is left alone:
 * vendors state it in the major unit already (OCDO.L at 308.8 GBp has a market
 * cap of 2.55 B GBP, not 2.55 B pence).
 */
export function toMajorUnits<Parts extends { identity: Identity; quote: QuoteStats; bars: Bar[] }>(
  parts: Parts,
): Parts & { conversion?: UnitConversion } {
  const conversion = minorUnitOf(parts.identity.currency);
  if (!conversion) return parts;
  const { factor } = conversion;
  const { quote } = parts;
  return {
    ...parts,
    identity: { ...parts.identity, currency: conversion.currency },
    quote: {
      ...quote,
      price: scale(quote.price, factor),
      change: scale(quote.change, factor),
      fiftyTwoWeekHigh: scale(quote.fiftyTwoWeekHigh, factor),
      fiftyTwoWeekLow: scale(quote.fiftyTwoWeekLow, factor),
      targetMeanPrice: scale(quote.targetMeanPrice, factor),
    },
    bars: barsInMajorUnits(parts.bars, factor),
    conversion,
  };
}

/** The data note that says a conversion happened. */
export function conversionNote(conversion: UnitConversion): string {
  return `prices were quoted in ${describeMinorUnit(conversion)} and are shown in ${conversion.currency} (divided by ${Math.round(1 / conversion.factor)}); the market cap was already in ${conversion.currency}`;
}
